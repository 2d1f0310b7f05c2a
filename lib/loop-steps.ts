/** The Lambda steps of the run loop, in the order a run meets them. */
export const LOOP_STEPS = [
  'initRun',
  'collectArtefacts',
  'judgeArtefact',
  'evaluateCheap',
  'analyzeGap',
  'advance',
  'pauseRun',
  'finalizeRun',
] as const;

/** One Lambda step of the run loop. */
export type LoopStep = (typeof LOOP_STEPS)[number];

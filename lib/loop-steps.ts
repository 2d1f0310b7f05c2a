/** The Lambda steps of the run loop, in the order a run meets them. */
export const LOOP_STEPS = [
  'initRun',
  'openFixPullRequest',
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

/**
 * Each step's handler, `lambdas/handlers/<name>.ts`: what the stack deploys for it, and
 * what the bench and the bundled-loop test bundle. Plain data, cheap to import.
 */
export const LOOP_HANDLERS: Readonly<Record<LoopStep, string>> = {
  initRun: 'init-run',
  openFixPullRequest: 'open-fix-pull-request',
  collectArtefacts: 'collect-artefacts',
  judgeArtefact: 'judge-artefact',
  evaluateCheap: 'evaluate-cheap',
  analyzeGap: 'analyze-gap',
  advance: 'advance',
  pauseRun: 'pause-run',
  finalizeRun: 'finalize-run',
};

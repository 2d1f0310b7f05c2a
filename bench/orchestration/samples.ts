/**
 * One sample per measured iteration: its wall time from RunAgent's start to Advance's end,
 * and how that splits between the handlers, the runner and the engine (the formulas are in
 * the header of bench/orchestration.bench.ts).
 */
import type { IterationRecord } from '../../lambdas/core/schemas/iteration.js';
import {
  iterationBounds,
  LOOP_STATES,
  stepsOf,
  type LoopStateName,
  type TimedStep,
} from './loop-steps.js';

export interface IterationSample {
  run: number;
  iteration: number;
  wallMs: number;
  agentMs: number;
  gatesMs: number;
  overheadMs: number;
  handlersMs: number;
  runnerMs: number;
  engineMs: number;
  /** Route and the transition to the next RunAgent: outside `wall`, for reference. */
  betweenMs: number | undefined;
  /** What the runner itself reports (after its claim, without the RunAgent wrapper). */
  runnerReportedMs: number;
  /** Each loop step's duration. */
  steps: Partial<Record<LoopStateName, number>>;
}

/** The samples of measured run `runIndex`, from its steps and its stored iterations. */
export function samplesOf(
  runIndex: number,
  steps: readonly TimedStep[],
  records: readonly IterationRecord[],
): IterationSample[] {
  return [...records]
    .sort((a, b) => a.iteration - b.iteration)
    .map((record) => sampleOf(runIndex, steps, record));
}

function sampleOf(
  runIndex: number,
  steps: readonly TimedStep[],
  record: IterationRecord,
): IterationSample {
  const n = record.iteration;
  const durations = record.durations;
  if (!durations) throw new Error(`iteration ${n} has no durations`);
  const timed = Object.fromEntries(
    LOOP_STATES.map((state) => [state, onlyStep(steps, state, n)]),
  ) as Partial<Record<LoopStateName, TimedStep>>;
  const stepMs = Object.fromEntries(
    LOOP_STATES.flatMap((state) => {
      const step = timed[state];
      return step ? [[state, step.end - step.start]] : [];
    }),
  ) as Partial<Record<LoopStateName, number>>;
  const { first, last } = iterationBounds(timed);
  if (!first || !last) throw new Error(`iteration ${n} is missing its steps`);
  const wallMs = last.end - first.start;
  const overheadMs = wallMs - durations.agentMs - durations.gatesMs;
  const handlersMs = stepMs.Advance ?? 0;
  const runnerMs = (stepMs.RunAgent ?? 0) - durations.agentMs - durations.gatesMs;
  const next = iterationBounds(stepsOf(steps, n + 1)).first;
  return {
    run: runIndex,
    iteration: n,
    wallMs,
    agentMs: durations.agentMs,
    gatesMs: durations.gatesMs,
    overheadMs,
    handlersMs,
    runnerMs,
    engineMs: overheadMs - handlersMs - runnerMs,
    betweenMs: next ? next.start - last.end : undefined,
    runnerReportedMs: durations.runnerMs,
    steps: stepMs,
  };
}

/** The one `state` step of `iteration`: a retried or missing step voids the measurement. */
function onlyStep(
  steps: readonly TimedStep[],
  state: LoopStateName,
  iteration: number,
): TimedStep | undefined {
  const found = steps.filter((step) => step.state === state && step.iteration === iteration);
  if (found.length !== 1)
    throw new Error(`expected one ${state} step for iteration ${iteration}, saw ${found.length}`);
  return found[0];
}

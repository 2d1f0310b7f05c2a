/**
 * The loop steps an iteration runs, as the local stack reports them: an iteration starts
 * with RunAgent and ends with Advance, which records it, decides and plans the next one
 * (lambdas/core/steps/advance.ts); InitRun plans a segment's first iteration, and a run
 * that evaluates runs its evaluation states in between.
 */
import { containerEnvironment, type StepEvent } from '../../local/local-executions.js';

export const LOOP_STATES = ['RunAgent', 'Advance'] as const;
export type LoopStateName = (typeof LOOP_STATES)[number];

export interface Interval {
  start: number;
  end: number;
}

/** One step the state machine ran, on this process's `performance.now()` clock. */
export interface TimedStep extends Interval {
  state: string;
  iteration: number | undefined;
}

export function stepWindow(
  steps: readonly TimedStep[],
  state: LoopStateName,
  iteration: number,
): TimedStep | undefined {
  return steps.find((step) => step.state === state && step.iteration === iteration);
}

/** The loop steps iteration `n` ran, by state. */
export function stepsOf(
  steps: readonly TimedStep[],
  n: number,
): Partial<Record<LoopStateName, TimedStep>> {
  return Object.fromEntries(
    LOOP_STATES.flatMap((state) => {
      const step = stepWindow(steps, state, n);
      return step ? [[state, step]] : [];
    }),
  );
}

/** The first and last step an iteration ran. */
export function iterationBounds(timed: Partial<Record<LoopStateName, TimedStep>>): {
  first: TimedStep | undefined;
  last: TimedStep | undefined;
} {
  return {
    first: timed.RunAgent,
    last: timed.Advance,
  };
}

/**
 * The iteration a loop step belongs to, from its input: RunAgent's container environment
 * (RALPH_ITERATION), the loop state's `iteration` for the others.
 */
export function iterationOf(event: StepEvent): number | undefined {
  const fromState = (value: unknown): number | undefined => {
    const iteration = (value as { iteration?: unknown } | undefined)?.iteration;
    return typeof iteration === 'number' ? iteration : undefined;
  };
  if (event.state === 'RunAgent') {
    const value = containerEnvironment(event.input).RALPH_ITERATION;
    return value === undefined ? undefined : Number(value);
  }
  return fromState(event.input);
}

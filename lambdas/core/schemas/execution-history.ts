/**
 * How many iterations one execution (a segment) can hold. A Standard execution's history is
 * capped at 25,000 events and an execution that reaches the cap fails on the spot, without
 * the loop's own failure handling; so a segment is cut before it could get there, from what
 * an iteration costs in events (counted from statemachines/run-loop.asl.json):
 * - every iteration: Route (2), RunAgent as an ECS .sync task (6), EvaluationEnabled (2) and
 *   Advance (5): 15;
 * - an evaluated one also CollectArtefacts (5), the EvaluateExpensive Map's own events (6),
 *   EvaluateCheap (5), AnalyzeGap (5) and their choices (10): 46 in all, plus 7 per artefact
 *   judged (one Map iteration: started, task entered, scheduled, started, succeeded, exited,
 *   iteration succeeded).
 * A fifth of the cap is kept free for retries (a retried task adds 3–4 events) and for the
 * segment's own start and end.
 */
export const HISTORY_EVENT_CAP = 25_000;
const HISTORY_BUDGET = Math.floor(HISTORY_EVENT_CAP * 0.8);
export const ITERATION_EVENTS = 15;
export const EVALUATED_ITERATION_EVENTS = 46;
export const EVENTS_PER_ARTEFACT = 7;
/** The segment length when the config gives none and the iterations are small. */
export const DEFAULT_ITERATIONS_PER_SEGMENT = 25;

/** What of a run's config decides an iteration's events. */
export interface HistoryShape {
  limits: { iterationsPerSegment?: number | undefined };
  evaluation: {
    enabled: boolean;
    judgeChanges?: boolean | undefined;
    suite?: { maxDocuments: number } | undefined;
  };
}

/** The most artefacts one iteration can send to the judge: the suite's documents and the change. */
export function maxArtefactsPerIteration(config: HistoryShape): number {
  const { evaluation } = config;
  if (!evaluation.enabled) return 0;
  const documents = evaluation.suite?.maxDocuments ?? 0;
  const change = (evaluation.judgeChanges ?? evaluation.suite === undefined) ? 1 : 0;
  return documents + change;
}

/** An iteration's events at most, and the arithmetic in words. */
export function iterationEvents(config: HistoryShape): { events: number; formula: string } {
  if (!config.evaluation.enabled)
    return { events: ITERATION_EVENTS, formula: `${ITERATION_EVENTS} events` };
  const artefacts = maxArtefactsPerIteration(config);
  const events = EVALUATED_ITERATION_EVENTS + EVENTS_PER_ARTEFACT * artefacts;
  return {
    events,
    formula: `${events} events (${EVALUATED_ITERATION_EVENTS} + ${EVENTS_PER_ARTEFACT} × ${artefacts} artefacts judged)`,
  };
}

/** How many iterations fit in one segment's history budget. */
export function iterationsThatFit(config: HistoryShape): number {
  return Math.floor(HISTORY_BUDGET / iterationEvents(config).events);
}

/**
 * Iterations per segment: the configured number (checked by {@link historyProblem}), else
 * the default, shortened to what fits.
 */
export function segmentLength(config: HistoryShape): number {
  return (
    config.limits.iterationsPerSegment ??
    Math.max(1, Math.min(DEFAULT_ITERATIONS_PER_SEGMENT, iterationsThatFit(config)))
  );
}

/** Why a configured segment length cannot fit in an execution's history, or undefined. */
export function historyProblem(config: HistoryShape): string | undefined {
  const configured = config.limits.iterationsPerSegment;
  const fit = iterationsThatFit(config);
  if (configured === undefined || configured <= fit) return undefined;
  const { events, formula } = iterationEvents(config);
  return `${configured} iterations × ${formula} = ${configured * events} events, over the ${HISTORY_BUDGET} of Step Functions' ${HISTORY_EVENT_CAP}-event execution history a segment may use; at most ${fit} fit (leave it out to have it chosen)`;
}

/**
 * One iteration's metrics record, from both modes' results and the pattern set that scored
 * them. `patternCount` and `provisionalPatterns` describe that scoring set; committed and
 * rejected count the lifecycle decisions this iteration's results led to.
 */
import { measureAgreement } from './agreement.js';
import type { EvaluationConfig } from '../schemas/evaluation-config.js';
import { DEFAULT_HEURISTIC_SIGNALS, measureCoverage, type HeuristicSignal } from './coverage.js';
import { gapDelta, iterationGap } from './gap.js';
import { assessJudgeReliability } from './judge-reliability.js';
import { pairResults } from './pairing.js';
import { detectRegression, type RegressionFigures } from './regression.js';
import type { PatternEvent } from '../schemas/analysis/actions.js';
import { IterationMetricsSchema, type IterationMetrics } from '../schemas/analysis/metrics.js';
import { parseOrThrow } from '../shared/validation.js';
import type { CheapModeResult, ExpensiveModeResult, PatternSet } from '../schemas/evaluation.js';

export interface IterationMetricsInput {
  iteration: number;
  /** ISO timestamp, passed in (the core has no clock). */
  timestamp: string;
  cheap: readonly CheapModeResult[];
  expensive: readonly ExpensiveModeResult[];
  /** The pattern set that scored this iteration. */
  patternSet: Pick<PatternSet, 'version' | 'patterns'>;
  /** This iteration's lifecycle events; committed and rejected ones are counted. */
  patternEvents?: readonly PatternEvent[];
  /** The previous iteration's metrics (for `gapDelta` and regression). */
  previous?: IterationMetrics;
  /**
   * The previous pattern set's figures on this iteration's artefacts: what the change of
   * patterns alone did. Regression compares with it when given (the artefacts' content may
   * have changed since the previous iteration, and that is not the patterns' doing).
   */
  regressionBaseline?: RegressionFigures;
  heuristics?: readonly HeuristicSignal[];
}

/**
 * Builds and validates one iteration's metrics.
 *
 * @throws InvalidInputError on a malformed timestamp or duplicate artefact results.
 * @example
 * const metrics = buildIterationMetrics(
 *   { iteration: 5, timestamp: clock.now(), cheap, expensive, patternSet, previous },
 *   config,
 * );
 * metrics.gap; // 0.4
 */
export function buildIterationMetrics(
  input: IterationMetricsInput,
  config: Pick<EvaluationConfig, 'coverage' | 'judge' | 'regression'>,
): IterationMetrics {
  const paired = pairResults(input.cheap, input.expensive);
  const gap = iterationGap(paired.pairs);
  const agreement = measureAgreement(paired.pairs);
  const { coverage } = measureCoverage(
    paired.pairs,
    input.patternSet.patterns,
    config,
    input.heuristics ?? DEFAULT_HEURISTIC_SIGNALS,
  );
  const reliability = assessJudgeReliability(input.expensive, config);
  const events = input.patternEvents ?? [];
  const statuses = input.patternSet.patterns.map((pattern) => pattern.status);

  const draft = {
    iteration: input.iteration,
    timestamp: input.timestamp,
    patternSetVersion: input.patternSet.version,
    ...gap,
    gapDelta: gapDelta(gap.gap, input.previous?.gap),
    ...agreement,
    coverage,
    patternCount: statuses.filter((status) => status === 'active').length,
    provisionalPatterns: statuses.filter((status) => status === 'provisional').length,
    patternsCommitted: events.filter((event) => event.type === 'committed_pattern').length,
    patternsRejected: events.filter((event) => event.type === 'rejected_pattern').length,
    failedEvaluations: reliability.failed,
    judgeFailureRate: reliability.failureRate,
    judgeReliable: !reliability.unreliable,
  };
  const { regression } = detectRegression(
    input.regressionBaseline ?? input.previous,
    draft,
    config,
  );
  return parseOrThrow(
    IterationMetricsSchema,
    { ...draft, regressionDetected: regression },
    `iteration ${input.iteration} metrics`,
  );
}

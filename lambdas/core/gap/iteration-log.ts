/** Builds the iteration log from the analysis's results (no figure is recomputed). */
import {
  DEFAULT_HEURISTIC_SIGNALS,
  measureCoverage,
  type ArtefactCoverage,
  type CoverageConfig,
  type HeuristicSignal,
} from './coverage.js';
import { pairResults } from './pairing.js';
import type { ActionTaken } from '../schemas/analysis/actions.js';
import type {
  ConvergenceCheck,
  DivergenceCheck,
  JudgeReliability,
  RegressionCheck,
} from '../schemas/analysis/checks.js';
import type { ComponentHealth } from '../schemas/analysis/health.js';
import {
  IterationLogSchema,
  type IterationLog,
  type NextIterationPlan,
  type PerArtefactResult,
} from '../schemas/analysis/log.js';
import type { IterationMetrics } from '../schemas/analysis/metrics.js';
import { parseOrThrow } from '../shared/validation.js';
import type { CheapModeResult, ExpensiveModeResult, Pattern } from '../schemas/evaluation.js';

export interface IterationLogInput {
  metrics: IterationMetrics;
  cheap: readonly CheapModeResult[];
  expensive: readonly ExpensiveModeResult[];
  /** The patterns that scored this iteration (for coverage's signal words). */
  patterns: readonly Pattern[];
  componentHealth: ComponentHealth;
  judgeReliability: JudgeReliability;
  divergence: DivergenceCheck;
  regression: RegressionCheck;
  convergence: ConvergenceCheck;
  actionsTaken: readonly ActionTaken[];
  nextIterationPlan?: NextIterationPlan;
  heuristics?: readonly HeuristicSignal[];
}

/**
 * One line per artefact either mode saw, sorted by id.
 *
 * @example
 * perArtefactResults(cheap, expensive, patterns, config)[0];
 * // { artefactId: 'story_1', status: 'paired', expensiveScore: 4.5, cheapScore: 4.2, ... }
 */
export function perArtefactResults(
  cheap: readonly CheapModeResult[],
  expensive: readonly ExpensiveModeResult[],
  patterns: readonly Pattern[],
  config: CoverageConfig,
  heuristics: readonly HeuristicSignal[] = DEFAULT_HEURISTIC_SIGNALS,
): PerArtefactResult[] {
  const paired = pairResults(cheap, expensive);
  const coverage = new Map<string, ArtefactCoverage>(
    measureCoverage(paired.pairs, patterns, config, heuristics).artefacts.map((artefact) => [
      artefact.artefactId,
      artefact,
    ]),
  );
  const cheapById = new Map(cheap.map((result) => [result.artefactId, result]));
  const line = (
    artefactId: string,
    status: PerArtefactResult['status'],
    rest: Partial<PerArtefactResult> = {},
  ): PerArtefactResult => {
    const cheapResult = cheapById.get(artefactId);
    return {
      artefactId,
      status,
      expensiveScore: null,
      cheapScore: cheapResult?.gestalt ?? null,
      gap: null,
      patternsMatched: [...(cheapResult?.patternsMatched ?? [])],
      patternsMissed: [...(cheapResult?.patternsMissed ?? [])],
      judgeError: null,
      weaknesses: [],
      covered: null,
      ...rest,
    };
  };

  const lines = [
    ...paired.pairs.map((pair) => {
      const covered = coverage.get(pair.artefactId);
      return line(pair.artefactId, 'paired', {
        expensiveScore: pair.expensive,
        gap: pair.gap,
        weaknesses: covered?.weaknesses ?? [],
        covered: covered?.covered ?? null,
      });
    }),
    ...paired.judgeFailed.map((failure) =>
      line(failure.artefactId, 'judge_failed', { judgeError: failure.error }),
    ),
    ...paired.missingCheap.map((id) => line(id, 'cheap_missing')),
    ...paired.missingJudge.map((id) => line(id, 'judge_missing')),
  ];
  return lines.sort((a, b) =>
    a.artefactId < b.artefactId ? -1 : a.artefactId > b.artefactId ? 1 : 0,
  );
}

/**
 * The iteration log, validated against its schema.
 *
 * @throws InvalidInputError when a piece does not fit the log's schema.
 * @example
 * const log = buildIterationLog({ metrics, cheap, expensive, patterns, componentHealth,
 *   judgeReliability, divergence, regression, convergence, actionsTaken }, config);
 */
export function buildIterationLog(input: IterationLogInput, config: CoverageConfig): IterationLog {
  const log: IterationLog = {
    iteration: input.metrics.iteration,
    timestamp: input.metrics.timestamp,
    patternSetVersion: input.metrics.patternSetVersion,
    componentHealth: input.componentHealth,
    metrics: input.metrics,
    judgeReliability: input.judgeReliability,
    divergenceCheck: input.divergence,
    regressionCheck: input.regression,
    perArtefactResults: perArtefactResults(
      input.cheap,
      input.expensive,
      input.patterns,
      config,
      input.heuristics,
    ),
    actionsTaken: [...input.actionsTaken],
    convergenceCheck: input.convergence,
    ...(input.nextIterationPlan ? { nextIterationPlan: input.nextIterationPlan } : {}),
  };
  return parseOrThrow(IterationLogSchema, log, `iteration ${input.metrics.iteration} log`);
}

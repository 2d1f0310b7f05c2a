/**
 * One iteration's whole analysis, in order:
 * 1. judge reliability, then each pattern's firing / testing / correctness (tested and
 *    correct only when the judge is reliable);
 * 2. pattern learning on the updated set: provisional lifecycle, near-duplicate merge,
 *    weight recalibration (on merged counts), pruning (on recalibrated weights);
 * 3. the gap analysis (`assess`, gap/assess.ts): metrics against the previous history entry
 *    (gap delta, regression), appended to the calibration history, divergence and
 *    convergence over it;
 * 4. the recovery actions (patterns/recovery/recover.ts): planned, and those that change
 *    the patterns or the run's settings carried out; component health;
 * 5. the iteration log.
 * Pure: the caller stores `recovered.patterns` as the next pattern set version, unless the
 * regression verdict is `rollback` (then it restores `regression.rollbackToVersion`), and
 * carries out the two recovery actions with side effects (`rollback_patterns`,
 * `rerun_judge`).
 */
import { assessComponentHealth } from '../gap/component-health.js';
import type { EvaluationConfig } from '../schemas/evaluation-config.js';
import { DEFAULT_HEURISTIC_SIGNALS, type HeuristicSignal } from '../gap/coverage.js';
import { assess } from '../gap/assess.js';
import { buildIterationLog } from '../gap/iteration-log.js';
import { assessJudgeReliability } from '../gap/judge-reliability.js';
import { pairResults } from '../gap/pairing.js';
import { measureCriteriaAgreement } from '../gap/criteria-agreement.js';
import type { CriterionAgreement } from '../schemas/analysis/criteria.js';
import { mergeNearDuplicates } from './lifecycle/dedupe.js';
import { applyPatternLifecycle, type PatternChanges } from './lifecycle/provisional.js';
import { recordPatternOutcomes } from './lifecycle/outcomes.js';
import { prunePatterns } from './lifecycle/pruning.js';
import { recalibrateWeights } from './lifecycle/weights.js';
import { recover, type Recovery } from './recovery/recover.js';
import type { RegressionFigures } from '../gap/regression.js';
import type { PatternEvent, RecoveryAction } from '../schemas/analysis/actions.js';
import type {
  ConvergenceCheck,
  DivergenceCheck,
  JudgeReliability,
  RegressionCheck,
} from '../schemas/analysis/checks.js';
import type { ComponentHealth } from '../schemas/analysis/health.js';
import type { IterationLog, NextIterationPlan } from '../schemas/analysis/log.js';
import type { IterationMetrics } from '../schemas/analysis/metrics.js';
import {
  RunEvaluationStateSchema,
  type RunEvaluationState,
} from '../schemas/evaluation-records.js';
import type {
  CheapModeResult,
  ExpensiveModeResult,
  Pattern,
  PatternSet,
} from '../schemas/evaluation.js';

export interface IterationAnalysisInput {
  iteration: number;
  /** ISO timestamp, passed in (the core has no clock). */
  timestamp: string;
  cheap: readonly CheapModeResult[];
  expensive: readonly ExpensiveModeResult[];
  /** The pattern set that scored this iteration. */
  patternSet: Pick<PatternSet, 'version' | 'patterns'>;
  /** The calibration history so far (without this iteration). */
  history: readonly IterationMetrics[];
  nextIterationPlan?: NextIterationPlan;
  heuristics?: readonly HeuristicSignal[];
  /**
   * The previous pattern set's figures on this iteration's artefacts (see
   * `IterationMetricsInput.regressionBaseline`); without it, regression compares with the
   * previous iteration.
   */
  regressionBaseline?: RegressionFigures;
  /** The run's evaluation state (recovery's lasting settings); a fresh one when absent. */
  state?: RunEvaluationState;
}

export interface IterationAnalysis {
  /** The patterns after this iteration's learning (the next version's content). */
  patterns: Pattern[];
  patternEvents: PatternEvent[];
  reliability: JudgeReliability;
  metrics: IterationMetrics;
  /** The calibration history with this iteration appended and trimmed. */
  history: IterationMetrics[];
  regression: RegressionCheck;
  divergence: DivergenceCheck;
  /** The recovery actions planned, in the order of the document's table. */
  recovery: RecoveryAction[];
  /** What the recovery actions carried out here made of `patterns` and the run's state. */
  recovered: Omit<Recovery, 'actions'>;
  health: ComponentHealth;
  convergence: ConvergenceCheck;
  log: IterationLog;
  /** The two modes' QUS defects compared per criterion. */
  criteria: CriterionAgreement[];
}

/**
 * Analyses one iteration from both modes' results.
 *
 * @example
 * const analysis = analyseIteration(
 *   { iteration: 5, timestamp: clock.now(), cheap, expensive, patternSet, history },
 *   resolveEvaluationConfig(project.evaluation),
 * );
 * if (analysis.convergence.converged) finish(analysis.convergence.proof);
 */
export function analyseIteration(
  input: IterationAnalysisInput,
  config: EvaluationConfig,
): IterationAnalysis {
  const { iteration, cheap, expensive } = input;
  const heuristics = input.heuristics ?? DEFAULT_HEURISTIC_SIGNALS;
  const reliability = assessJudgeReliability(expensive, config);
  const learned = learnPatterns(input, reliability, config);
  const { metrics, history, regression, divergence, convergence } = assess(
    {
      iteration,
      timestamp: input.timestamp,
      cheap,
      expensive,
      patternSet: input.patternSet,
      patternEvents: learned.events,
      heuristics,
      ...(input.regressionBaseline ? { regressionBaseline: input.regressionBaseline } : {}),
    },
    input.history,
    config,
  );
  const { actions: recovery, ...recovered } = recover(
    {
      iteration,
      currentVersion: input.patternSet.version,
      patterns: learned.patterns,
      artefactIds: metrics.artefactIds,
      divergence,
      regression,
      reliability,
    },
    input.state ?? RunEvaluationStateSchema.parse({}),
    config,
  );
  const paired = pairResults(cheap, expensive);
  const health = assessComponentHealth(
    {
      cheap,
      expensive,
      paired,
      reliability,
      coverage: metrics.coverage,
      patternEvents: learned.events,
    },
    config,
  );
  const log = buildIterationLog(
    {
      metrics,
      cheap,
      expensive,
      patterns: input.patternSet.patterns,
      componentHealth: health,
      judgeReliability: reliability,
      divergence,
      regression,
      convergence,
      actionsTaken: [...learned.events, ...recovery],
      heuristics,
      ...(input.nextIterationPlan ? { nextIterationPlan: input.nextIterationPlan } : {}),
    },
    config,
  );
  return {
    patterns: learned.patterns,
    patternEvents: learned.events,
    reliability,
    metrics,
    history,
    regression,
    divergence,
    recovery,
    recovered,
    health,
    convergence,
    log,
    criteria: measureCriteriaAgreement(paired.pairs),
  };
}

/**
 * Pattern learning on this iteration's results: each pattern's firing / testing /
 * correctness (tested and correct only with a reliable judge), then on the updated set the
 * provisional lifecycle, the near-duplicate merge, weight recalibration (on merged counts)
 * and pruning (on recalibrated weights).
 */
function learnPatterns(
  input: IterationAnalysisInput,
  reliability: JudgeReliability,
  config: EvaluationConfig,
): PatternChanges {
  const tested = recordPatternOutcomes(
    input.patternSet.patterns,
    input.cheap,
    input.expensive,
    config,
    { iteration: input.iteration, judgeReliable: !reliability.unreliable },
  );
  const lifecycle = applyPatternLifecycle(tested, config);
  const merged = mergeNearDuplicates(lifecycle.patterns, config);
  const weighted = recalibrateWeights(merged.patterns, config);
  const pruned = prunePatterns(weighted.patterns, input.iteration, config);
  return {
    patterns: pruned.patterns,
    events: [...lifecycle.events, ...merged.events, ...weighted.events, ...pruned.events],
  };
}

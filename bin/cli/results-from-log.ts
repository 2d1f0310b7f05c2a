import type { EvaluationConfig } from '../../lambdas/core/schemas/evaluation-config.js';
import {
  RecoveryActionSchema,
  type ActionTaken,
  type RecoveryAction,
} from '../../lambdas/core/schemas/analysis/actions.js';
import type { ConvergenceCheckName } from '../../lambdas/core/schemas/analysis/checks.js';
import { describeConvergence } from '../../lambdas/core/gap/convergence-words.js';
import { COMPONENTS } from '../../lambdas/core/schemas/analysis/health.js';
import type { StoredIterationLog } from '../../lambdas/core/schemas/analysis/log.js';
import type { IterationEvaluationSummary } from '../../lambdas/core/schemas/evaluation-records.js';
import { withinThreshold } from './figures.js';
import type { LargeGap, ResultsView } from './results-block.js';

/** The convergence rules, as the run's config has them and the log's evidence repeats them. */
export type ResultsThresholds = EvaluationConfig['convergence'];

const RECOVERY_TYPES: ReadonlySet<string> = new Set(
  RecoveryActionSchema.options.map((option) => option.shape.type.value),
);

/**
 * The results block's view of one iteration of a run, from its stored log and the summary
 * on its record (`ralph show RUN --iteration N`).
 *
 * @example
 * renderResultsBlock(resultsFromLog(log, iteration.evaluation, run.config.evaluation));
 */
export function resultsFromLog(
  log: StoredIterationLog,
  summary: IterationEvaluationSummary,
  config: ResultsThresholds,
): ResultsView {
  // The rules the log was checked with; those it predates (agreement) from the config.
  const thresholds = { ...config, ...log.convergenceCheck.evidence?.thresholds };
  const rolledBackTo = log.rolledBackTo ?? summary.rolledBackTo;
  return {
    title: `Iteration ${log.iteration} Results`,
    thresholds: { gap: thresholds.gapThreshold, cheap: thresholds.cheapThreshold },
    expensive: expensiveView(log, summary),
    cheap: cheapView(log),
    gap: gapView(log, thresholds),
    learning: learningView(log, summary, rolledBackTo),
    health: COMPONENTS.map((component) => ({
      component,
      healthy: log.componentHealth[component].healthy,
      flags: log.componentHealth[component].flags,
    })),
    divergence: divergenceLines(log),
    actions: actionLines(log),
    convergence: convergenceView(log, thresholds),
    decision: decision(log, rolledBackTo),
  };
}

type Section<K extends keyof ResultsView> = NonNullable<ResultsView[K]>;

function expensiveView(
  log: StoredIterationLog,
  summary: IterationEvaluationSummary,
): Section<'expensive'> {
  return {
    average: log.metrics.expensiveAvg,
    judged: log.judgeReliability.total - log.judgeReliability.failed,
    failed: log.judgeReliability.failed,
    unreliable: log.judgeReliability.unreliable,
    ...(log.judgeRerun ? { rerun: 'the judge was re-run and the median of its runs taken' } : {}),
    cost: `$${summary.costUsd.toFixed(4)} (judge and proposer)`,
  };
}

function cheapView(log: StoredIterationLog): Section<'cheap'> {
  const { metrics } = log;
  const scored = log.perArtefactResults.filter((result) => result.cheapScore !== null);
  return {
    average: metrics.cheapAvg,
    patternMatch:
      scored.length === 0
        ? null
        : scored.filter((result) => result.patternsMatched.length > 0).length / scored.length,
    patterns: {
      active: metrics.patternCount,
      provisional: metrics.provisionalPatterns,
      version: log.patternSetVersion,
    },
  };
}

function gapView(log: StoredIterationLog, thresholds: ResultsThresholds): Section<'gap'> {
  const { metrics } = log;
  return {
    gap: metrics.gap,
    delta: metrics.gapDelta,
    mae: metrics.mae,
    spearman: metrics.spearman,
    qwk: metrics.qwk,
    coverage: metrics.coverage,
    large: largeGaps(log, thresholds.gapThreshold),
    judgeFailed: log.judgeReliability.failedArtefactIds,
  };
}

/** The paired artefacts whose two scores lie further apart than `gapThreshold`. */
function largeGaps(log: StoredIterationLog, gapThreshold: number): LargeGap[] {
  return log.perArtefactResults.flatMap((result) =>
    result.status === 'paired' &&
    result.gap !== null &&
    result.expensiveScore !== null &&
    result.cheapScore !== null &&
    !withinThreshold(result.gap, gapThreshold)
      ? [
          {
            artefactId: result.artefactId,
            expensive: result.expensiveScore,
            cheap: result.cheapScore,
            gap: result.gap,
            ...(result.weaknesses[0] ? { judgeNote: result.weaknesses[0].weakness } : {}),
          },
        ]
      : [],
  );
}

function learningView(
  log: StoredIterationLog,
  summary: IterationEvaluationSummary,
  rolledBackTo: number | undefined,
): Section<'learning'> {
  const count = (type: string) => log.actionsTaken.filter((action) => action.type === type).length;
  return {
    proposed: summary.patternsProposed,
    committed: log.metrics.patternsCommitted,
    rejected: log.metrics.patternsRejected,
    pruned: count('pruned_pattern'),
    merged: count('merged_patterns'),
    ...(rolledBackTo === undefined
      ? {}
      : { rolledBackTo, rollbackReason: regressionWords(log) ?? 'regression' }),
    nextVersion: log.nextPatternSetVersion ?? summary.nextPatternSetVersion,
    ...(log.proposals ? { proposer: log.proposals.reason } : {}),
  };
}

function convergenceView(
  log: StoredIterationLog,
  thresholds: ResultsThresholds,
): Section<'convergence'> {
  const { checks, reasons } = log.convergenceCheck;
  const names = (Object.keys(CHECK_LABELS) as ConvergenceCheckName[]).filter(
    (name) => checks?.[name] !== undefined,
  );
  return {
    converged: log.convergenceCheck.converged,
    // Each check's reason, with its number; a log stored before reasons were kept, the rule.
    checks: names.map((name) => ({
      label: reasons[name]?.reason ?? CHECK_LABELS[name](thresholds),
      held: checks?.[name] ?? false,
    })),
    summary: convergenceWords(log, thresholds),
  };
}

const CHECK_LABELS: Record<ConvergenceCheckName, (t: ResultsThresholds) => string> = {
  minIterations: (t) => `at least ${t.minIterations} iterations`,
  consecutiveIterations: (t) => `the last ${t.stableIterations} iterations follow each other`,
  sameArtefacts: () => 'the same artefacts each time',
  cheapThreshold: (t) => `cheap avg >= ${t.cheapThreshold} each time`,
  gapThreshold: (t) => `|gap| <= ${t.gapThreshold} each time`,
  minSpearman: (t) => `Spearman >= ${t.minSpearman} each time`,
  minQwk: (t) => `QWK >= ${t.minQwk} each time`,
  judgeReliable: () => 'the judge reliable each time',
  patternsStable: (t) => `active patterns change by < ${t.maxPatternCountChange}`,
  noDivergence: () => 'no divergence',
  noRegressions: () => 'no regression',
};

function convergenceWords(log: StoredIterationLog, thresholds: ResultsThresholds): string {
  const check = log.convergenceCheck;
  if (check.converged) return 'Converged ✓';
  if (check.checks === null)
    return `Not yet: fewer than ${thresholds.stableIterations} evaluated iterations to compare`;
  if (Object.keys(check.reasons).length > 0)
    return `Not yet converged: ${describeConvergence(check, thresholds.stableIterations)}`;
  const failed = Object.values(check.checks).filter((held) => !held).length;
  return `Not yet converged: ${failed} of ${Object.keys(check.checks).length} checks failed`;
}

function regressionWords(log: StoredIterationLog): string | undefined {
  const { triggers } = log.regressionCheck;
  if (triggers.length === 0) return undefined;
  return triggers
    .map(
      (trigger) =>
        `${trigger.type}: ${trigger.metric} ${trigger.previous.toFixed(2)} → ${trigger.current.toFixed(2)}`,
    )
    .join('; ');
}

function divergenceLines(log: StoredIterationLog): string[] {
  const check = log.divergenceCheck;
  const lines: string[] = [];
  if (check.diverging)
    lines.push(
      `✗ ${check.reason ?? 'diverging'}${check.diagnosis ? ` (diagnosis: ${check.diagnosis})` : ''}${
        check.lastKnownGoodVersion === null
          ? ''
          : `; last known good set v${check.lastKnownGoodVersion}`
      }`,
    );
  else lines.push(check.insufficientData ? '✓ none (too few iterations to tell)' : '✓ none');
  if (check.patternExplosion) lines.push('✗ pattern explosion: active patterns grew too fast');
  if (check.gaps.length > 0)
    lines.push(
      `|gap| over iterations ${check.iterations.join(', ')}: ${check.gaps.map((gap) => gap.toFixed(2)).join(', ')}`,
    );
  const regression = log.regressionCheck;
  lines.push(
    regression.regression
      ? `✗ regression: ${regressionWords(log) ?? 'detected'} (verdict: ${regression.verdict})`
      : regression.skipped === 'first_iteration'
        ? '✓ regression: nothing to compare with yet'
        : regression.skipped === 'pattern_set_unchanged'
          ? '✓ regression: not checked (the pattern set did not change)'
          : '✓ regression: none',
  );
  return lines;
}

function actionLines(log: StoredIterationLog): string[] {
  const carriedOut = new Set(log.actionsCarriedOut);
  const planned = log.actionsTaken.filter(isRecoveryAction);
  const lines = planned.map(
    (action) =>
      `${carriedOut.has(action.type) ? '✓' : '·'} ${action.type}: ${action.description} (${action.trigger}${carriedOut.has(action.type) ? '' : '; planned, not carried out'})`,
  );
  const plannedTypes = new Set(planned.map((action) => action.type as string));
  for (const type of log.actionsCarriedOut)
    if (!plannedTypes.has(type))
      lines.push(`✓ ${type}${type === 'rerun_judge' ? ' (the judge was unreliable)' : ''}`);
  return lines;
}

function isRecoveryAction(action: ActionTaken): action is RecoveryAction {
  return RECOVERY_TYPES.has(action.type);
}

function decision(log: StoredIterationLog, rolledBackTo: number | undefined): string {
  if (log.convergenceCheck.converged)
    return 'converged: the cheap mode alone tracks the judge on these artefacts';
  if (rolledBackTo !== undefined)
    return `regression: the pattern set was rolled back to v${rolledBackTo}, continuing from it`;
  if (log.divergenceCheck.diverging)
    return `diverging (${log.divergenceCheck.reason ?? 'unknown'}): recovery actions taken, continuing`;
  if (log.nextIterationPlan)
    return `continuing: ${log.nextIterationPlan.focus} (${log.nextIterationPlan.proposedPatterns} patterns proposed)`;
  return 'not converged yet, continuing optimisation';
}

import type { IterationAnalysis } from './analyse-iteration.js';
import { COMPONENTS } from '../schemas/analysis/health.js';
import type { IterationEvaluationSummary } from '../schemas/evaluation-records.js';
import { describeConvergence } from '../gap/convergence-words.js';

export interface SummaryInput {
  analysis: IterationAnalysis;
  artefacts: number;
  judgeRerun: boolean;
  patternSetVersion: number;
  nextPatternSetVersion: number;
  patternsProposed: number;
  rolledBackTo?: number;
  actions: string[];
  costUsd: number;
  logKey: string;
  /** The convergence window's length (named when there are too few iterations for it). */
  stableIterations: number;
}

/** The iteration record's evaluation summary: the figures people and the live line read. */
export function summariseEvaluation(input: SummaryInput): IterationEvaluationSummary {
  const { analysis } = input;
  const { metrics, convergence, divergence, health } = analysis;
  const divergenceFlags = [
    ...(divergence.reason ? [divergence.reason] : []),
    ...(divergence.diagnosis && divergence.diagnosis !== 'unknown' ? [divergence.diagnosis] : []),
    ...(divergence.patternExplosion ? ['pattern_explosion'] : []),
  ];
  return {
    artefacts: input.artefacts,
    judged: analysis.reliability.total - analysis.reliability.failed,
    judgeFailed: analysis.reliability.failed,
    judgeUnreliable: analysis.reliability.unreliable,
    judgeRerun: input.judgeRerun,
    expensiveAvg: metrics.expensiveAvg,
    cheapAvg: metrics.cheapAvg,
    gap: metrics.gap,
    gapDelta: metrics.gapDelta,
    mae: metrics.mae,
    spearman: metrics.spearman,
    qwk: metrics.qwk,
    coverage: metrics.coverage,
    patternSetVersion: input.patternSetVersion,
    nextPatternSetVersion: input.nextPatternSetVersion,
    activePatterns: metrics.patternCount,
    provisionalPatterns: metrics.provisionalPatterns,
    patternsProposed: input.patternsProposed,
    patternsCommitted: metrics.patternsCommitted,
    patternsRejected: metrics.patternsRejected,
    regression: analysis.regression.regression,
    ...(input.rolledBackTo === undefined ? {} : { rolledBackTo: input.rolledBackTo }),
    divergence: [...new Set(divergenceFlags)],
    healthFlags: healthFlags(health),
    actions: input.actions,
    converged: convergence.converged,
    convergence: describeConvergence(convergence, input.stableIterations),
    costUsd: input.costUsd,
    logKey: input.logKey,
  };
}

function healthFlags(health: IterationAnalysis['health']): string[] {
  return COMPONENTS.flatMap((component) =>
    health[component].flags.map((flag) => `${component}: ${flag}`),
  );
}

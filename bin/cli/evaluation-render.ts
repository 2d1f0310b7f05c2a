import { tableStyle } from './table-style.js';
import Table from 'cli-table3';
import type { IterationEvaluationSummary } from '../../lambdas/core/schemas/evaluation-records.js';
import type { RunRecord } from '../../lambdas/core/schemas/run.js';
import type { IterationRecord } from '../../lambdas/core/schemas/iteration.js';
import { figure, percent, signed } from './figures.js';

/**
 * Summaries stored before the rules gave their numbers said `converged: every check held`
 * or `not yet: <failed checks>`; without the prefix they read as today's words do.
 */
const OLD_PREFIX = /^(converged|not yet): /;

/** The rules that held or failed, with their numbers, as the summary has them. */
function convergenceWords(summary: IterationEvaluationSummary): string {
  return summary.convergence.replace(OLD_PREFIX, '');
}

/**
 * The dual-mode figures on an iteration's live line: both averages, the gap and its change,
 * the pattern counts, and whether the run converged with it, by which rules.
 *
 * @example
 * evaluationSegment(summary);
 * // 'judge 4.20 · cheap 3.47 · gap +0.73 (Δ −0.12) · patterns 12 active, 3 provisional ·
 * //  not converged: cheap 3.47 < 4.0, |gap| 0.73 > 0.5, ρ 0.50 < 0.6, QWK 0.40 < 0.6'
 */
export function evaluationSegment(summary: IterationEvaluationSummary): string {
  const parts = [
    `judge ${figure(summary.expensiveAvg)}${summary.judgeUnreliable ? ' (unreliable)' : ''}`,
    `cheap ${figure(summary.cheapAvg)}`,
    `gap ${signed(summary.gap)}${summary.gapDelta === null ? '' : ` (Δ ${signed(summary.gapDelta)})`}`,
    `patterns ${summary.activePatterns} active, ${summary.provisionalPatterns} provisional`,
  ];
  if (summary.rolledBackTo !== undefined) parts.push(`rolled back to v${summary.rolledBackTo}`);
  parts.push(
    `${summary.converged ? 'converged ✓' : 'not converged'}: ${convergenceWords(summary)}`,
  );
  return parts.join(' · ');
}

/** One row per evaluated iteration: the figures of its summary. */
export function evaluationTable(iterations: readonly IterationRecord[]): string {
  const table = new Table({
    head: [
      '#',
      'judge',
      'cheap',
      'gap',
      'Δ',
      'MAE',
      'ρ',
      'QWK',
      'coverage',
      'patterns',
      'actions',
      'converged',
    ],
    style: tableStyle(),
  });
  for (const { iteration, evaluation } of iterations) {
    if (!evaluation) continue;
    table.push([
      String(iteration),
      `${figure(evaluation.expensiveAvg)}${evaluation.judgeUnreliable ? ' !' : ''}`,
      figure(evaluation.cheapAvg),
      signed(evaluation.gap),
      signed(evaluation.gapDelta),
      figure(evaluation.mae),
      figure(evaluation.spearman),
      figure(evaluation.qwk),
      percent(evaluation.coverage),
      `${evaluation.activePatterns} / ${evaluation.provisionalPatterns}`,
      evaluation.actions.join(', ') || '—',
      evaluation.converged ? '✓' : '✗',
    ]);
  }
  return table.toString();
}

/**
 * Where the run's evaluation stands: converged (at which iteration, by which rules with
 * their numbers, with the proof's location), or why not yet, in the last analysed
 * iteration's words.
 *
 * @example
 * convergenceLine(run, iterations, describe);
 * // 'not converged after iteration 6: ρ 0.30 < 0.6 (cheap ≥ 4.0 held, |gap| ≤ 0.5 held)'
 */
export function convergenceLine(
  run: RunRecord,
  iterations: readonly IterationRecord[],
  describeArtefact: (key: string) => string,
): string {
  const state = run.evaluation;
  if (state?.converged) {
    const at = iterations.find((iteration) => iteration.iteration === state.convergedIteration);
    return `converged at iteration ${state.convergedIteration ?? '?'}${
      at?.evaluation ? `: ${convergenceWords(at.evaluation)}` : ''
    }${state.proofKey ? ` · proof: ${describeArtefact(state.proofKey)}` : ''}`;
  }
  const last = iterations.findLast((iteration) => iteration.evaluation !== undefined);
  if (!last?.evaluation) return 'not converged: no iteration evaluated yet';
  return `not converged after iteration ${last.iteration}: ${convergenceWords(last.evaluation)}`;
}

/**
 * The evaluation part of a run's report, for a run that evaluates (or has evaluated
 * iterations): the table and the convergence line; `undefined` for a run that does not.
 */
export function evaluationReport(
  run: RunRecord,
  iterations: readonly IterationRecord[],
  describeArtefact: (key: string) => string,
): string | undefined {
  const evaluated = iterations.filter((iteration) => iteration.evaluation !== undefined);
  if (!run.config.evaluation.enabled && evaluated.length === 0) return undefined;
  const lines = ['dual-mode evaluation'];
  if (evaluated.length > 0) lines.push(evaluationTable(evaluated));
  lines.push(convergenceLine(run, iterations, describeArtefact));
  return lines.join('\n');
}

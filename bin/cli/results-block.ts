import type { EvaluationOutcome } from '../../lambdas/core/evaluation/dual-mode.js';
import type { AnalysisConfig } from '../../lambdas/core/evaluation/analysis/config.js';

const round = (value: number | null | undefined, digits = 2): string =>
  value === null || value === undefined ? '—' : value.toFixed(digits);

/**
 * The design document's "Iteration N Results" block (Metrics Dashboard), from one
 * evaluation of both modes over the same artefacts.
 */
export function resultsBlock(
  title: string,
  outcome: EvaluationOutcome,
  config: Pick<AnalysisConfig, 'gapThreshold' | 'cheapThreshold'>,
  options: { offlineJudge?: boolean } = {},
): string {
  const lines = [`=== ${title} ===`, ''];
  const judge = outcome.expensive?.final;
  if (judge) {
    lines.push('EXPENSIVE MODE:', `  Gestalt avg: ${round(judge.averageGestalt)}`);
    lines.push(
      `  Evaluated: ${judge.judged} ok, ${judge.failed} failed (${round(judge.failureRate * 100, 0)}%)${judge.unreliable ? ' — UNRELIABLE' : ''}`,
    );
    if (outcome.expensive?.rerun)
      lines.push(`  Re-run ${judge.runs}× and the median taken (${outcome.expensive.rerunReason})`);
    const usage = outcome.expensive?.usage;
    if (usage)
      lines.push(
        `  Tokens: ${usage.inputTokens} in, ${usage.outputTokens} out · cost $${usage.costUsd.toFixed(4)}${options.offlineJudge ? ' (what the model would cost; the offline judge costs nothing)' : ''}`,
      );
    lines.push('');
  }
  const cheap = outcome.cheap;
  if (cheap) {
    const average = cheap.reduce((sum, result) => sum + result.gestalt, 0) / (cheap.length || 1);
    const matched = cheap.filter((result) => result.patternsMatched.length > 0).length;
    lines.push('CHEAP MODE:', `  Gestalt avg: ${round(cheap.length ? average : null)}`);
    lines.push(
      `  Pattern match: ${cheap.length ? Math.round((matched / cheap.length) * 100) : 0}% of artefacts`,
      '',
    );
  }
  const dual = outcome.dual;
  if (dual) {
    const gap = dual.gap.gap;
    const ok = gap !== null && Math.abs(gap) <= config.gapThreshold + 1e-9;
    lines.push(
      'GAP ANALYSIS:',
      `  Gap: ${round(gap)} (target: <= ${config.gapThreshold}) ${gap === null ? '' : ok ? '✓' : '✗'}`,
      `  Agreement: MAE ${round(dual.agreement.mae)}, Spearman ${round(dual.agreement.spearman)}, QWK ${round(dual.agreement.qwk)}, coverage ${dual.coverage.coverage === null ? '—' : `${Math.round(dual.coverage.coverage * 100)}%`}`,
    );
    const large = dual.paired.pairs.filter((pair) => Math.abs(pair.gap) > config.gapThreshold);
    if (large.length > 0) {
      lines.push('', `  Artefacts with large gap (> ${config.gapThreshold}):`);
      for (const pair of large) {
        lines.push(
          `    - ${pair.artefactId}: exp=${round(pair.expensive, 1)}, cheap=${round(pair.cheap, 1)} (gap=${round(pair.gap, 1)})`,
        );
        const weakness = pair.judge.weaknesses[0] ?? pair.judge.reasoning.split('\n')[0];
        if (weakness) lines.push(`      Judge: ${weakness}`);
      }
    }
    if (dual.paired.judgeFailed.length > 0)
      lines.push(
        `  Left out (judge failed): ${dual.paired.judgeFailed.map((failure) => failure.artefactId).join(', ')}`,
      );
    const cheapAvg = dual.gap.cheapAvg;
    lines.push(
      '',
      `DECISION: ${
        ok && cheapAvg !== null && cheapAvg >= config.cheapThreshold
          ? 'the cheap mode is good enough alone and tracks the judge here'
          : 'the cheap mode does not yet stand alone: learn patterns from the large gaps'
      }`,
    );
  }
  return lines.join('\n');
}

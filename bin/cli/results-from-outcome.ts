import { scoreRules, type ScoreRuleSettings } from '../../lambdas/core/gap/convergence-rules.js';
import type { EvaluationOutcome } from '../../lambdas/core/steps/evaluate-artefacts.js';
import { withinThreshold } from './figures.js';
import type { ResultsView } from './results-block.js';

/**
 * The results block's view of one evaluation without a loop (`ralph eval`): no pattern
 * learning, health, divergence or convergence, which need iterations.
 *
 * @example
 * renderResultsBlock(resultsFromOutcome('Evaluation Results', outcome, config.convergence));
 */
export function resultsFromOutcome(
  title: string,
  outcome: EvaluationOutcome,
  config: ScoreRuleSettings,
  options: { offlineJudge?: boolean } = {},
): ResultsView {
  const view: ResultsView = {
    title,
    thresholds: { gap: config.gapThreshold, cheap: config.cheapThreshold },
  };
  const judge = outcome.expensive?.final;
  if (outcome.expensive && judge) {
    const { usage } = outcome.expensive;
    view.expensive = {
      average: judge.averageGestalt ?? null,
      judged: judge.judged,
      failed: judge.failed,
      unreliable: judge.unreliable,
      ...(outcome.expensive.rerun
        ? { rerun: `${judge.runs}× and the median taken (${outcome.expensive.rerunReason})` }
        : {}),
      cost: `${usage.inputTokens} tokens in, ${usage.outputTokens} out · $${usage.costUsd.toFixed(4)}${options.offlineJudge ? ' (what the model would cost; the offline judge costs nothing)' : ''}`,
    };
  }
  const cheap = outcome.cheap;
  if (cheap) {
    const matched = cheap.filter((result) => result.patternsMatched.length > 0).length;
    view.cheap = {
      average:
        cheap.length === 0
          ? null
          : cheap.reduce((sum, result) => sum + result.gestalt, 0) / cheap.length,
      patternMatch: cheap.length === 0 ? null : matched / cheap.length,
    };
  }
  const dual = outcome.dual;
  if (dual) {
    view.gap = {
      gap: dual.gap.gap,
      mae: dual.agreement.mae,
      spearman: dual.agreement.spearman,
      qwk: dual.agreement.qwk,
      coverage: dual.coverage.coverage,
      large: dual.paired.pairs
        .filter((pair) => !withinThreshold(pair.gap, config.gapThreshold))
        .map((pair) => {
          const note = pair.judge.weaknesses[0] ?? pair.judge.reasoning.split('\n')[0];
          return {
            artefactId: pair.artefactId,
            expensive: pair.expensive,
            cheap: pair.cheap,
            gap: pair.gap,
            ...(note ? { judgeNote: note } : {}),
          };
        }),
      judgeFailed: dual.paired.judgeFailed.map((failure) => failure.artefactId),
    };
    view.decision = standAloneDecision(dual, config);
  }
  return view;
}

/**
 * Whether the cheap mode could stand alone on these artefacts, by the score rules a run
 * converges on (`scoreRules`: cheap average, gap, ρ, QWK, with enough artefacts to measure
 * agreement), judged on this one evaluation as a window of one: each rule that failed with
 * its number (a reason two rules share said once), or every rule with its number when all
 * held.
 *
 * @example
 * standAloneDecision(outcome.dual, config.convergence);
 * // 'the cheap mode does not yet stand alone: ρ 0.30 < 0.6'
 */
export function standAloneDecision(
  dual: NonNullable<EvaluationOutcome['dual']>,
  rules: ScoreRuleSettings,
): string {
  const outcomes = scoreRules(
    [
      {
        iteration: 1,
        cheapAvg: dual.gap.cheapAvg,
        gap: dual.gap.gap,
        spearman: dual.agreement.spearman,
        qwk: dual.agreement.qwk,
        artefactIds: dual.paired.pairs.map((pair) => pair.artefactId),
      },
    ],
    rules,
  );
  const all = Object.values(outcomes);
  if (all.every((outcome) => outcome.held))
    return `the cheap mode is good enough alone and tracks the judge here: ${all.map((outcome) => outcome.reason).join(', ')}`;
  const failed = all
    .filter((outcome) => !outcome.held)
    .map((outcome) =>
      outcome === outcomes.gapThreshold
        ? `${outcome.reason}: learn patterns from the large gaps`
        : outcome.reason,
    );
  return `the cheap mode does not yet stand alone: ${[...new Set(failed)].join(', ')}`;
}

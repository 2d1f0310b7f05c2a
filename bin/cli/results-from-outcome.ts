import type { EvaluationConfig } from '../../lambdas/core/schemas/evaluation-config.js';
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
  config: DecisionRules,
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

/** The convergence rules one evaluation can check: averages, gap and agreement. */
type DecisionRules = Pick<
  EvaluationConfig['convergence'],
  'gapThreshold' | 'cheapThreshold' | 'minSpearman' | 'minQwk' | 'minAgreementArtefacts'
>;

const two = (value: number): string => value.toFixed(2);

/**
 * Whether the cheap mode could stand alone on these artefacts, by the rules a run converges
 * on (one evaluation is one iteration: no window, no pattern history), naming each rule that
 * failed with its number, or every rule with its number when all held.
 *
 * @example
 * standAloneDecision(outcome.dual, config.convergence);
 * // 'the cheap mode does not yet stand alone: ρ 0.30 < 0.6'
 */
export function standAloneDecision(
  dual: NonNullable<EvaluationOutcome['dual']>,
  rules: DecisionRules,
): string {
  const { gap, cheapAvg } = dual.gap;
  const { spearman, qwk } = dual.agreement;
  const held: string[] = [];
  const failed: string[] = [];
  const check = (ok: boolean, rule: string, why: string) =>
    ok ? held.push(rule) : failed.push(why);
  check(
    cheapAvg !== null && cheapAvg >= rules.cheapThreshold,
    `cheap ≥ ${rules.cheapThreshold.toFixed(1)} (${cheapAvg === null ? '—' : two(cheapAvg)})`,
    `cheap ${cheapAvg === null ? 'not measured' : `${two(cheapAvg)} < ${rules.cheapThreshold.toFixed(1)}`}`,
  );
  check(
    gap !== null && withinThreshold(gap, rules.gapThreshold),
    `|gap| ≤ ${rules.gapThreshold} (${gap === null ? '—' : two(Math.abs(gap))})`,
    `|gap| ${gap === null ? 'not measured' : `${two(Math.abs(gap))} > ${rules.gapThreshold}`}: learn patterns from the large gaps`,
  );
  const compared = dual.paired.pairs.length;
  if (compared < rules.minAgreementArtefacts)
    failed.push(
      `too few artefacts to measure agreement: ${compared} < ${rules.minAgreementArtefacts}`,
    );
  else {
    check(
      spearman !== null && spearman >= rules.minSpearman,
      `ρ ≥ ${rules.minSpearman} (${spearman === null ? '—' : two(spearman)})`,
      spearman === null
        ? 'ρ not measurable (one mode scored every artefact alike)'
        : `ρ ${two(spearman)} < ${rules.minSpearman}`,
    );
    check(
      qwk !== null && qwk >= rules.minQwk,
      `QWK ≥ ${rules.minQwk} (${qwk === null ? '—' : two(qwk)})`,
      qwk === null
        ? 'QWK not measurable (both modes rated every artefact alike)'
        : `QWK ${two(qwk)} < ${rules.minQwk}`,
    );
  }
  return failed.length === 0
    ? `the cheap mode is good enough alone and tracks the judge here: ${held.join(', ')}`
    : `the cheap mode does not yet stand alone: ${failed.join(', ')}`;
}

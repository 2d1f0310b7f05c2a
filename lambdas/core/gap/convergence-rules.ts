/**
 * Convergence's rules one by one, each judged over the stability window and answering with
 * whether it held, the rule and the reason, with the number that decided it: the weakest
 * value of the window (`ρ ≥ 0.6 (0.81)`: the lowest rho was 0.81), or the one that failed
 * (`ρ 0.30 < 0.6`, `… at iteration 4` when it is not the latest iteration's).
 */
import { atLeast, atMost } from '../shared/compare.js';
import type { ConvergenceCheckName, DivergenceCheck } from '../schemas/analysis/checks.js';
import type { IterationMetrics } from '../schemas/analysis/metrics.js';
import type { EvaluationConfig } from '../schemas/evaluation-config.js';

/** One rule's verdict over the window. */
export interface RuleOutcome {
  held: boolean;
  /** The rule with its threshold: `ρ ≥ 0.6`. */
  rule: string;
  /** Why it held or failed, with the deciding number. */
  reason: string;
}

/** What the score rules read of an iteration: its scores, agreement and artefacts. */
export type ScoredEntry = Pick<
  IterationMetrics,
  'iteration' | 'cheapAvg' | 'gap' | 'spearman' | 'qwk' | 'artefactIds'
>;

/** The window (oldest first, never empty) and the divergence found over the whole history. */
export interface RuleInput {
  window: readonly [IterationMetrics, ...IterationMetrics[]];
  divergence: DivergenceCheck;
}

type Rules = EvaluationConfig['convergence'];
/** The thresholds the score rules read. */
export type ScoreRuleSettings = Pick<
  Rules,
  'cheapThreshold' | 'gapThreshold' | 'minSpearman' | 'minQwk' | 'minAgreementArtefacts'
>;

/** A threshold as people write it: `4.0`, `0.6`, `0.55`. */
const limitText = (value: number): string =>
  Number.isInteger(value) ? value.toFixed(1) : String(value);
const figureText = (value: number): string => value.toFixed(2);

/** ` at iteration 4`, for an entry other than the latest (whose number the verdict names). */
function where(entry: ScoredEntry, window: readonly ScoredEntry[]): string {
  return entry.iteration === window.at(-1)?.iteration ? '' : ` at iteration ${entry.iteration}`;
}

interface Threshold {
  label: string;
  value: (entry: ScoredEntry) => number | null;
  limit: number;
  /** `min`: every value at least `limit`; `max`: at most. */
  bound: 'min' | 'max';
  /** Why an entry without the figure fails, given where it is (` at iteration 4` or ``). */
  missing: (where: string) => string;
}

/**
 * Every entry's figure within its limit. Held: the weakest figure is the reason's number.
 * Failed: the weakest figure past the limit, and the first entry without one, whichever
 * there are (one does not hide the other).
 */
function thresholdRule(window: readonly ScoredEntry[], threshold: Threshold): RuleOutcome {
  const { label, limit, bound } = threshold;
  const rule = `${label} ${bound === 'min' ? '≥' : '≤'} ${limitText(limit)}`;
  const measured = window.flatMap((entry) => {
    const value = threshold.value(entry);
    return value === null ? [] : [{ entry, value }];
  });
  // On a tie the later entry: the latest iteration's figure needs no `at iteration` note.
  const weakest = measured.reduce<(typeof measured)[number] | undefined>(
    (worst, next) =>
      !worst || (bound === 'min' ? next.value <= worst.value : next.value >= worst.value)
        ? next
        : worst,
    undefined,
  );
  const missing = window.find((entry) => threshold.value(entry) === null);
  const within =
    !weakest || (bound === 'min' ? atLeast(weakest.value, limit) : atMost(weakest.value, limit));
  if (within && !missing && weakest)
    return { held: true, rule, reason: `${rule} (${figureText(weakest.value)})` };
  const reasons = [
    ...(weakest && !within
      ? [
          `${label} ${figureText(weakest.value)} ${bound === 'min' ? '<' : '>'} ${limitText(limit)}${where(weakest.entry, window)}`,
        ]
      : []),
    ...(missing ? [threshold.missing(where(missing, window))] : []),
  ];
  return { held: false, rule, reason: reasons.join(', ') };
}

/**
 * An agreement figure's rule: first, enough artefacts for the figure to mean anything
 * (`minAgreementArtefacts`), said as such rather than failed on a meaningless number.
 */
function agreementRule(
  window: readonly ScoredEntry[],
  rules: ScoreRuleSettings,
  threshold: Omit<Threshold, 'bound'>,
): RuleOutcome {
  const artefacts = Math.min(...window.map((entry) => entry.artefactIds.length));
  if (artefacts < rules.minAgreementArtefacts)
    return {
      held: false,
      rule: `${threshold.label} ≥ ${limitText(threshold.limit)}`,
      reason: `too few artefacts to measure agreement: ${artefacts} < ${rules.minAgreementArtefacts}`,
    };
  return thresholdRule(window, { ...threshold, bound: 'min' });
}

const DIVERGENCE_WORDS: Record<NonNullable<DivergenceCheck['reason']>, string> = {
  gap_increasing: 'diverging: the gap keeps rising',
  gap_plateau: 'diverging: the gap is stuck above its threshold',
};

const NO_SCORE = 'no artefact scored by both modes';

type WindowRule = 'minIterations' | 'consecutiveIterations' | 'sameArtefacts';
type ScoreRule = 'cheapThreshold' | 'gapThreshold' | 'minSpearman' | 'minQwk';
type ConditionRule = Exclude<ConvergenceCheckName, WindowRule | ScoreRule>;

/** The window itself: late enough, without a gap, over the same artefacts. */
function windowRules(window: RuleInput['window'], rules: Rules): Record<WindowRule, RuleOutcome> {
  const latest = window.at(-1) ?? window[0];
  const iterations = window.map((entry) => entry.iteration);
  const consecutive = iterations.every(
    (iteration, index) => index === 0 || iteration === (iterations[index - 1] ?? 0) + 1,
  );
  const otherArtefacts = window.find(
    (entry) =>
      entry.artefactIds.length !== latest.artefactIds.length ||
      entry.artefactIds.some((id, index) => id !== latest.artefactIds[index]),
  );
  const late = latest.iteration >= rules.minIterations;
  return {
    minIterations: {
      held: late,
      rule: `iteration ≥ ${rules.minIterations}`,
      reason: `iteration ${latest.iteration} ${late ? '≥' : '<'} ${rules.minIterations}`,
    },
    consecutiveIterations: {
      held: consecutive,
      rule: 'consecutive iterations',
      reason: `iterations ${iterations.join(', ')} ${consecutive ? 'follow each other' : 'do not follow each other'}`,
    },
    sameArtefacts: {
      held: latest.artefactIds.length > 0 && !otherArtefacts,
      rule: 'the same artefacts',
      reason:
        latest.artefactIds.length === 0
          ? NO_SCORE
          : otherArtefacts
            ? `other artefacts at iteration ${otherArtefacts.iteration} (${otherArtefacts.artefactIds.length}, then ${latest.artefactIds.length})`
            : `the same ${latest.artefactIds.length} artefacts`,
    },
  };
}

/**
 * The scores: the cheap mode good enough, close to the judge, ranking and rating as it does.
 * Also what `ralph eval` decides one evaluation by (a window of one entry).
 *
 * @example
 * scoreRules([{ iteration: 1, cheapAvg: 4.2, gap: 0.3, spearman: 0.3, qwk: 0.5, artefactIds }], rules)
 *   .minSpearman.reason; // 'ρ 0.30 < 0.6'
 */
export function scoreRules(
  window: readonly ScoredEntry[],
  rules: ScoreRuleSettings,
): Record<ScoreRule, RuleOutcome> {
  return {
    cheapThreshold: thresholdRule(window, {
      label: 'cheap',
      value: (entry) => entry.cheapAvg,
      limit: rules.cheapThreshold,
      bound: 'min',
      missing: (at) => `no cheap average${at} (${NO_SCORE})`,
    }),
    // By magnitude: a cheap mode that over-scores does not track the judge either.
    gapThreshold: thresholdRule(window, {
      label: '|gap|',
      value: (entry) => (entry.gap === null ? null : Math.abs(entry.gap)),
      limit: rules.gapThreshold,
      bound: 'max',
      missing: (at) => `no gap${at} (${NO_SCORE})`,
    }),
    minSpearman: agreementRule(window, rules, {
      label: 'ρ',
      value: (entry) => entry.spearman,
      limit: rules.minSpearman,
      missing: (at) => `ρ not measurable${at} (one mode scored every artefact alike)`,
    }),
    minQwk: agreementRule(window, rules, {
      label: 'QWK',
      value: (entry) => entry.qwk,
      limit: rules.minQwk,
      missing: (at) => `QWK not measurable${at} (both modes rated every artefact alike)`,
    }),
  };
}

/** What the scores stand on: a reliable judge, a stable pattern set, no divergence or regression. */
function conditionRules(
  { window, divergence }: RuleInput,
  rules: Rules,
): Record<ConditionRule, RuleOutcome> {
  const changes = window.slice(1).map((after, index) => ({
    after,
    change: Math.abs(after.patternCount - (window[index]?.patternCount ?? after.patternCount)),
  }));
  const largest = changes.reduce((a, b) => (b.change > a.change ? b : a), {
    after: window[0],
    change: 0,
  });
  const stable = largest.change < rules.maxPatternCountChange;
  const unreliable = window.find((entry) => !entry.judgeReliable);
  const regressed = window.find((entry) => entry.regressionDetected);
  return {
    judgeReliable: {
      held: !unreliable,
      rule: 'a reliable judge',
      reason: unreliable
        ? `the judge unreliable${where(unreliable, window)}`
        : 'the judge reliable',
    },
    patternsStable: {
      held: stable,
      rule: `active patterns change by < ${rules.maxPatternCountChange}`,
      reason: stable
        ? `active patterns change by < ${rules.maxPatternCountChange} (${largest.change})`
        : `active patterns changed by ${largest.change} ≥ ${rules.maxPatternCountChange}${where(largest.after, window)}`,
    },
    noDivergence: {
      held: !divergence.diverging,
      rule: 'no divergence',
      reason: !divergence.diverging
        ? 'no divergence'
        : divergence.reason
          ? DIVERGENCE_WORDS[divergence.reason]
          : 'diverging',
    },
    noRegressions: {
      held: !regressed,
      rule: 'no regression',
      reason: regressed ? `a regression${where(regressed, window)}` : 'no regression',
    },
  };
}

/**
 * Every convergence rule's outcome, in the order the checks are reported.
 *
 * @example
 * const outcomes = convergenceRules({ window, divergence }, config.convergence);
 * outcomes.minSpearman; // { held: false, rule: 'ρ ≥ 0.6', reason: 'ρ 0.30 < 0.6' }
 */
export function convergenceRules(
  input: RuleInput,
  rules: Rules,
): Record<ConvergenceCheckName, RuleOutcome> {
  return {
    ...windowRules(input.window, rules),
    ...scoreRules(input.window, rules),
    ...conditionRules(input, rules),
  };
}

/**
 * Pattern coverage: does the cheap mode flag the weaknesses the judge listed?
 *
 * The matching rule:
 * - The cheap mode's signals on an artefact are (a) every **bad** pattern that fired on it
 *   (`patternsMatched`, whatever the pattern's status), described by the tokens of its
 *   keywords, phrases and description, and (b) every **low heuristic**: a heuristic whose
 *   reason is absent from the result's `reasons` (the cheap evaluator lists the heuristics
 *   that passed), described by the heuristic's own words. Regexes are not words and are not
 *   used.
 * - A judge weakness is **covered** when it shares at least `coverage.minSharedTokens`
 *   content tokens (see `tokenize`: lower-cased, stop words dropped, plurals stripped) with
 *   one signal.
 * - An artefact is **covered** when at least `coverage.minWeaknessShare` of its judge
 *   weaknesses are covered (default: all of them). An artefact the judge listed no weakness
 *   for says nothing about detection and is left out of the share (`covered: null`).
 * - Coverage is covered artefacts ÷ artefacts with weaknesses; `null` when there are none.
 */
import type { EvaluationConfig } from '../schemas/evaluation-config.js';
import { atLeast } from '../shared/compare.js';
import type { ArtefactGap } from './pairing.js';
import type { CheapModeResult, Pattern } from '../schemas/evaluation.js';
import { sharedCount, tokenize } from '../shared/text.js';

/** A cheap-mode heuristic: the reason it reports when it passes, and what it checks. */
export interface HeuristicSignal {
  reason: string;
  describes: string;
}

/** The design document's five heuristics, by the reasons its evaluator reports. */
export const DEFAULT_HEURISTIC_SIGNALS: readonly HeuristicSignal[] = [
  { reason: 'good_title', describes: 'title action oriented concise length' },
  { reason: 'good_ac', describes: 'acceptance criteria testable count' },
  { reason: 'good_tech', describes: 'technical area specific file component path code' },
  { reason: 'clear_user_value', describes: 'user value benefit problem' },
  { reason: 'appropriate_scope', describes: 'scope broad narrow large small size estimable' },
];

/** Prefix of a low heuristic's id among a weakness's `coveredBy`. */
export const HEURISTIC_SIGNAL_PREFIX = 'heuristic:';

export interface CheapSignal {
  /** A pattern id, or `heuristic:<reason>`. */
  id: string;
  tokens: Set<string>;
}

export interface WeaknessMatch {
  weakness: string;
  /** The signals that cover it (pattern ids, `heuristic:<reason>`); empty when missed. */
  coveredBy: string[];
}

export interface ArtefactCoverage {
  artefactId: string;
  weaknesses: WeaknessMatch[];
  /** `null` when the judge listed no weakness (left out of the share). */
  covered: boolean | null;
}

export interface Coverage {
  coverage: number | null;
  artefacts: ArtefactCoverage[];
}

export type CoverageConfig = Pick<EvaluationConfig, 'coverage'>;

/**
 * The words a pattern is matched on: its keywords, phrases and description.
 *
 * @example
 * patternTokens(pattern); // Set { 'vague', 'specific', ... }
 */
export function patternTokens(pattern: Pattern): Set<string> {
  return tokenize([...pattern.keywords, ...pattern.phrases, pattern.description].join(' '));
}

/**
 * The cheap mode's negative signals on one artefact: fired bad patterns, then low heuristics.
 *
 * @example
 * cheapSignals(result, patternsById).map((signal) => signal.id);
 * // ['p_too_vague', 'heuristic:good_ac']
 */
export function cheapSignals(
  result: CheapModeResult,
  patternsById: ReadonlyMap<string, Pattern>,
  heuristics: readonly HeuristicSignal[] = DEFAULT_HEURISTIC_SIGNALS,
): CheapSignal[] {
  const signals: CheapSignal[] = [];
  for (const id of new Set(result.patternsMatched)) {
    const pattern = patternsById.get(id);
    if (pattern?.type === 'bad') signals.push({ id, tokens: patternTokens(pattern) });
  }
  const passed = new Set(result.reasons);
  for (const heuristic of heuristics)
    if (!passed.has(heuristic.reason))
      signals.push({
        id: `${HEURISTIC_SIGNAL_PREFIX}${heuristic.reason}`,
        tokens: tokenize(heuristic.describes),
      });
  return signals;
}

/**
 * Which cheap signals cover each judge weakness of one artefact.
 *
 * @example
 * matchWeaknesses(pair, patternsById, config).covered; // true
 */
export function matchWeaknesses(
  pair: ArtefactGap,
  patternsById: ReadonlyMap<string, Pattern>,
  config: CoverageConfig,
  heuristics: readonly HeuristicSignal[] = DEFAULT_HEURISTIC_SIGNALS,
): ArtefactCoverage {
  const signals = cheapSignals(pair.cheapResult, patternsById, heuristics);
  const weaknesses = pair.judge.weaknesses.map((weakness) => {
    const tokens = tokenize(weakness);
    const coveredBy = signals
      .filter((signal) => sharedCount(tokens, signal.tokens) >= config.coverage.minSharedTokens)
      .map((signal) => signal.id);
    return { weakness, coveredBy };
  });
  const matched = weaknesses.filter((match) => match.coveredBy.length > 0).length;
  return {
    artefactId: pair.artefactId,
    weaknesses,
    covered:
      weaknesses.length === 0
        ? null
        : atLeast(matched / weaknesses.length, config.coverage.minWeaknessShare),
  };
}

/**
 * Pattern coverage over the artefacts both modes scored.
 *
 * @example
 * measureCoverage(pairResults(cheap, expensive).pairs, patternSet.patterns, config).coverage;
 * // 0.85
 */
export function measureCoverage(
  pairs: readonly ArtefactGap[],
  patterns: readonly Pattern[],
  config: CoverageConfig,
  heuristics: readonly HeuristicSignal[] = DEFAULT_HEURISTIC_SIGNALS,
): Coverage {
  const patternsById = new Map(patterns.map((pattern) => [pattern.id, pattern]));
  const artefacts = pairs.map((pair) => matchWeaknesses(pair, patternsById, config, heuristics));
  const judged = artefacts.filter((artefact) => artefact.covered !== null);
  return {
    coverage:
      judged.length === 0
        ? null
        : judged.filter((artefact) => artefact.covered).length / judged.length,
    artefacts,
  };
}

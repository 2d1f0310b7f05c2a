/**
 * The design document's user-story heuristics (`cheap_mode_evaluator.py`), each a pure
 * function with the document's numbers, and their weighted sum.
 */
import {
  AC_SCORE_FEW,
  AC_SCORE_IDEAL,
  AC_SCORE_MANY,
  AC_SCORE_NONE,
  AC_SCORE_OTHER,
  ACTION_WORDS,
  NEUTRAL_FRACTION,
  REASON_THRESHOLD,
  SCOPE_MAX_DESCRIPTION,
  SCOPE_MIN_DESCRIPTION,
  TECH_SCORE_FILE_LIKE,
  TECH_SCORE_KNOWN_PATH,
  TECH_SCORE_KNOWN_REPO,
  TECH_SCORE_NONE,
  TECH_SCORE_VAGUE,
  TITLE_LENGTH_LIMIT,
  VALUE_PHRASES,
} from './constants.js';
import type { StoryFields } from './story-fields.js';
import { codePointLength, escapeRegExp } from './text.js';
import type { TechRules } from './types.js';
import type { Defect, QusCriterion } from '../schemas/qus.js';
import {
  DEFAULT_STORY_HEURISTICS,
  type AcceptanceCriteriaBounds,
  type PatternSet,
} from '../schemas/evaluation.js';

const DEFAULT_AC_BOUNDS = DEFAULT_STORY_HEURISTICS.acceptanceCriteria;

/**
 * Any value phrase, case-insensitively: one pass instead of one per phrase, and no
 * lower-cased copy. For these ASCII phrases that is the design's `phrase in
 * description.lower()`: without the `u` flag, `i` folds ASCII letters only, and the only
 * characters that lower-case to ASCII are the Kelvin sign (to `k`, in no phrase) and `İ`
 * (to `i` plus a combining dot, which breaks the phrase either way).
 */
const VALUE_PHRASE = new RegExp(VALUE_PHRASES.map(escapeRegExp).join('|'), 'i');

/** The heuristics' verdict: a weighted fraction of their maximum, and what earned points. */
export interface HeuristicOutcome {
  /** 0–1; {@link NEUTRAL_FRACTION} when nothing could be scored. */
  readonly fraction: number;
  readonly reasons: readonly string[];
}

/**
 * Whether `text` has fewer code points than `limit`, counting only when UTF-16 length
 * cannot decide (a code point is one or two code units).
 */
function shorterThan(text: string, limit: number): boolean {
  if (text.length < limit) return true;
  if (text.length >= 2 * limit) return false;
  return codePointLength(text) < limit;
}

/** Whether `text` has more code points than `limit` (see {@link shorterThan}). */
function longerThan(text: string, limit: number): boolean {
  return text.length > limit && codePointLength(text) > limit;
}

/**
 * Title quality: shorter than 80 code points and starting with an action word (a plain
 * lower-cased prefix, as in the design: "Additional" counts as "add").
 *
 * @example
 * titleQuality('Add CSV export to the invoices page') // true
 * titleQuality('CSV export') // false
 */
export function titleQuality(title: string): boolean {
  if (title === '' || !shorterThan(title, TITLE_LENGTH_LIMIT)) return false;
  const lower = title.toLowerCase();
  return ACTION_WORDS.some((word) => lower.startsWith(word));
}

/**
 * Acceptance-criteria count: 0 → 0, fewer than 2 → 0.2, more than 10 → 0.3, 3–7 → 1,
 * otherwise (2, 8–10) → 0.6; the bounds are the set's (`storyHeuristics`), these by default.
 *
 * @example
 * acceptanceCriteriaScore(5) // 1
 * acceptanceCriteriaScore(8) // 0.6
 * acceptanceCriteriaScore(8, { fewLimit: 2, idealMin: 3, idealMax: 8, manyLimit: 10 }) // 1
 */
export function acceptanceCriteriaScore(
  count: number,
  bounds: AcceptanceCriteriaBounds = DEFAULT_AC_BOUNDS,
): number {
  if (count === 0) return AC_SCORE_NONE;
  if (count < bounds.fewLimit) return AC_SCORE_FEW;
  if (count > bounds.manyLimit) return AC_SCORE_MANY;
  if (count >= bounds.idealMin && count <= bounds.idealMax) return AC_SCORE_IDEAL;
  return AC_SCORE_OTHER;
}

/**
 * Technical specificity of the `technical_area`: the first known repository named in it
 * decides (1 with one of its known path prefixes, 0.5 without); otherwise a file-like
 * path scores 0.7, anything else 0.2, nothing 0. Substring tests, case-sensitive, as in
 * the design.
 *
 * @example
 * technicalSpecificity('aero packages/billing', tech) // 1 (aero: packages/)
 * technicalSpecificity('src/billing/invoice.ts', tech) // 0.7
 */
export function technicalSpecificity(area: string, tech: TechRules): number {
  if (area === '') return TECH_SCORE_NONE;
  for (const [repo, prefixes] of tech.repoPaths) {
    if (!area.includes(repo)) continue;
    return prefixes.some((prefix) => area.includes(prefix))
      ? TECH_SCORE_KNOWN_PATH
      : TECH_SCORE_KNOWN_REPO;
  }
  return tech.fileLikePath.test(area) ? TECH_SCORE_FILE_LIKE : TECH_SCORE_VAGUE;
}

/**
 * Whether the description states user value: one of the design's value phrases, as a
 * lower-cased substring.
 *
 * @example
 * hasUserValue('This saves support an hour a day') // true
 */
export function hasUserValue(description: string): boolean {
  return VALUE_PHRASE.test(description);
}

/**
 * Scope: not too small (a description under 50 code points, or fewer than 2 criteria)
 * and not too big (over 2000 code points, or more than 10 criteria); the criteria limits
 * are the set's `fewLimit` and `manyLimit`, these by default.
 *
 * @example
 * isAppropriateScope('x'.repeat(300), 4) // true
 */
export function isAppropriateScope(
  description: string,
  criteriaCount: number,
  bounds: AcceptanceCriteriaBounds = DEFAULT_AC_BOUNDS,
): boolean {
  if (shorterThan(description, SCOPE_MIN_DESCRIPTION) || criteriaCount < bounds.fewLimit)
    return false;
  if (longerThan(description, SCOPE_MAX_DESCRIPTION) || criteriaCount > bounds.manyLimit)
    return false;
  return true;
}

/** The QUS side of a story's score: the criteria judged, and the defects found. */
export interface QusOutcome {
  /** Criteria the detectors could judge on this story, with the weight each carries. */
  readonly judged: readonly { readonly criterion: QusCriterion; readonly weight: number }[];
  readonly defects: readonly Defect[];
}

/** What else a story's score reads besides its fields and the set's weights. */
export interface StoryScoring {
  /** The set's acceptance-criteria bounds (the design's by default). */
  readonly acBounds?: AcceptanceCriteriaBounds;
  /** The QUS criteria judged and the defects found. */
  readonly qus?: QusOutcome;
  /** Whether the story's sentence states its value in a Connextra ends ("so that …"). */
  readonly statesValue?: boolean;
}

/**
 * The design's five heuristics, weighted by the set's `scoringWeights` with its
 * acceptance-criteria bounds, and the QUS criteria weighted by their penalties; reasons as
 * the design names them (`good_title`, `good_ac`, `good_tech`, `clear_user_value`,
 * `appropriate_scope`) or, for a heuristic the story has a field for that did not earn its
 * reason, its opposite (`weak_title`, `weak_ac`, `weak_tech`, `no_user_value`,
 * `inappropriate_scope`), then `defect:<criterion>` for each defect: every contribution. A heuristic whose field
 * the story does not have (a one-sentence story's title, criteria, technical area, scope)
 * is left out of both the points and the maximum: neutral. A criterion passed earns its
 * weight and a defect does not, so a defect lowers the fraction whatever the rest scored.
 *
 * @example
 * scoreStory(fields, compiled.scoringWeights, compiled.tech, { qus, statesValue: true })
 * // { fraction: 0.86, reasons: [...] }
 */
export function scoreStory(
  story: StoryFields,
  weights: PatternSet['scoringWeights'],
  tech: TechRules,
  {
    acBounds = DEFAULT_AC_BOUNDS,
    qus = { judged: [], defects: [] },
    statesValue = false,
  }: StoryScoring = {},
): HeuristicOutcome {
  const reasons: string[] = [];
  let points = 0;
  let max = 0;
  // Each heuristic the story has a field for: its weight into the maximum, its score
  // times its weight into the points (no closure: this runs for every artefact).
  const criteria = story.acceptanceCriteria;
  if (story.title !== undefined) {
    const score = titleQuality(story.title) ? 1 : 0;
    max += weights.titleQuality;
    points += weights.titleQuality * score;
    reasons.push(score > REASON_THRESHOLD ? 'good_title' : 'weak_title');
  }
  if (criteria !== undefined) {
    const score = acceptanceCriteriaScore(criteria.length, acBounds);
    max += weights.acCount;
    points += weights.acCount * score;
    reasons.push(score > REASON_THRESHOLD ? 'good_ac' : 'weak_ac');
  }
  if (story.technicalArea !== undefined) {
    const score = technicalSpecificity(story.technicalArea, tech);
    max += weights.techSpecificity;
    points += weights.techSpecificity * score;
    reasons.push(score > REASON_THRESHOLD ? 'good_tech' : 'weak_tech');
  }
  if (story.description !== undefined) {
    const score = statesValue || hasUserValue(story.description) ? 1 : 0;
    max += weights.userFocus;
    points += weights.userFocus * score;
    reasons.push(score > REASON_THRESHOLD ? 'clear_user_value' : 'no_user_value');
  }
  if (story.description !== undefined && criteria !== undefined) {
    const score = isAppropriateScope(story.description, criteria.length, acBounds) ? 1 : 0;
    max += weights.scopeCheck;
    points += weights.scopeCheck * score;
    reasons.push(score > REASON_THRESHOLD ? 'appropriate_scope' : 'inappropriate_scope');
  }
  for (const { criterion, weight } of qus.judged) {
    max += weight;
    if (!qus.defects.some((defect) => defect.criterion === criterion)) points += weight;
  }
  for (const defect of qus.defects) reasons.push(`defect:${defect.criterion}`);
  return { fraction: max > 0 ? points / max : NEUTRAL_FRACTION, reasons };
}

/**
 * The cheap mode's verdict on one artefact: heuristics for its kind, plus the learned
 * patterns that apply to it, on the judge's 1–5 scale. No network, no clock: a pure
 * function of the artefact and the compiled pattern set.
 */
import { scoreChange } from './change-heuristics.js';
import {
  GESTALT_MAX,
  GESTALT_MIN,
  NEUTRAL_FRACTION,
  PATTERN_ADJUSTMENT_CAP,
  PATTERN_POINTS_PER_WEIGHT,
  RAW_SCORE_MAX,
  SCORE_DECIMALS,
  SOFT_BAND,
} from './constants.js';
import { judgedCriteria, storyDefects } from './qus/detect.js';
import { parseStory, type StoryParts } from './qus/story-parts.js';
import { documentText, readStoryFields, storyText, type StoryFields } from './story-fields.js';
import { scoreStory, type HeuristicOutcome } from './story-heuristics.js';
import type { CompiledPatterns } from './types.js';
import type { Artefact, CheapModeResult } from '../schemas/evaluation.js';
import type { Defect } from '../schemas/qus.js';
import { clamp } from '../shared/stats.js';

/** What the backlog knows about one of its stories (see `evaluateBacklog`). */
export interface BacklogView {
  /** The story's fields and its sentence, parsed once for the whole backlog. */
  readonly fields?: StoryFields;
  readonly parts?: StoryParts;
  /**
   * Its uniform and unique defects, which only the backlog can find; absent when the artefact
   * is scored alone, and then those criteria are not judged.
   */
  readonly defects?: readonly Defect[];
}

const SCALE = 10 ** SCORE_DECIMALS;
const round = (value: number): number => Math.round(value * SCALE) / SCALE;

/**
 * The gestalt on the 1–5 scale without a hard clamp: within `SOFT_BAND` of either end the
 * score approaches the end exponentially (continuous, with slope 1 where the band starts),
 * so a defect or a bad pattern lowers a story that already sits near 1, and a good one
 * raises a story near 5, instead of both being cut off at the bound.
 */
function softBounded(value: number): number {
  const low = GESTALT_MIN + SOFT_BAND;
  const high = GESTALT_MAX - SOFT_BAND;
  if (value < low) return GESTALT_MIN + SOFT_BAND * Math.exp((value - low) / SOFT_BAND);
  if (value > high) return GESTALT_MAX - SOFT_BAND * Math.exp((high - value) / SOFT_BAND);
  return value;
}

/** The heuristics of the artefact's kind, the text its patterns are matched against, and its defects. */
function heuristics(
  artefact: Artefact,
  compiled: CompiledPatterns,
  backlog: BacklogView,
): { outcome: HeuristicOutcome; text: string; defects: Defect[] } {
  if (artefact.kind === 'change') {
    const outcome = scoreChange(artefact);
    return { outcome, text: outcome.text, defects: [] };
  }
  if (artefact.documentType === 'user_story') {
    const story = backlog.fields ?? readStoryFields(artefact.content);
    const parts = backlog.parts ?? parseStory(story.sentence);
    const defects = storyDefects(parts, compiled.qus);
    if (backlog.defects) for (const defect of backlog.defects) defects.push(defect);
    const judged = judgedCriteria(parts, compiled.qus, backlog.defects !== undefined);
    const outcome = scoreStory(story, compiled.scoringWeights, compiled.tech, {
      acBounds: compiled.storyHeuristics.acceptanceCriteria,
      qus: { judged, defects },
      // A Connextra ends ("so that …") states the user's value as the design's phrases do.
      statesValue: parts.ends !== null,
    });
    return { outcome, text: storyText(story), defects };
  }
  // No rubric for this document type yet: the heuristics claim nothing, patterns decide.
  return {
    outcome: { fraction: NEUTRAL_FRACTION, reasons: [] },
    text: documentText(artefact.content),
    defects: [],
  };
}

/**
 * Scores one artefact in cheap mode.
 *
 * - Heuristics give a fraction f of their weighted maximum (user stories: the design's
 *   five; changes: gates, tests, diff size, spread; other documents: 0.5).
 * - Every active or provisional pattern that applies to the artefact and fires adds
 *   (`good`) or subtracts (`bad`) 0.3 × its weight; the net is capped at ±1.5.
 * - User stories also get the QUS detectors the set turns on: each criterion judged is one
 *   more heuristic, weighted by its penalty, and each defect is listed in `defects` with its
 *   evidence (`evaluateBacklog` adds the backlog's own: uniform, unique).
 * - `gestalt` = 1 + 4f + patterns, softly bounded to 1–5; `rawScore` = 5f (the heuristics alone,
 *   the design's `raw_score`); both rounded to two decimals.
 * - `reasons`: every contribution: each heuristic's reason (earned, or its opposite),
 *   `defect:<criterion>` for each defect, then the ids of the patterns that fired (in
 *   pattern-set order, as `patternsMatched`); `patternsMissed`: the patterns
 *   that apply but did not fire (a set: its order is deterministic but meaningless).
 *
 * @example
 * const compiled = compilePatternSet(set); // once per pattern-set version
 * const result = evaluateCheap(
 *   { kind: 'document', id: 'story-1', documentType: 'user_story', content: story },
 *   compiled,
 * );
 * // { artefactId: 'story-1', gestalt: 4.3, rawScore: 4.12, reasons: ['good_title', ..., 'p_007'], ... }
 */
export function evaluateCheap(
  artefact: Artefact,
  compiled: CompiledPatterns,
  backlog: BacklogView = {},
): CheapModeResult {
  const { outcome, text, defects } = heuristics(artefact, compiled, backlog);
  const matcher =
    artefact.kind === 'change' ? compiled.change : compiled.documents.get(artefact.documentType);
  let patternsMatched: string[] = [];
  let patternsMissed: string[] = [];
  let net = 0;
  if (matcher) {
    const { ids, signedWeights } = matcher;
    const fired = matcher.run(text, text.toLowerCase());
    patternsMatched = new Array<string>(fired.length);
    for (let j = 0; j < fired.length; j += 1) {
      const index = fired[j]!;
      patternsMatched[j] = ids[index]!;
      net += signedWeights[index]!;
    }
    // The misses: the ids without the fired ones, each replaced by the last id, from the
    // highest index down (so the last id has not fired). Cost grows with the few that
    // fired, not with the thousand that did not; the order carries no meaning.
    patternsMissed = ids.slice();
    for (let j = fired.length - 1; j >= 0; j -= 1) {
      const index = fired[j]!;
      const last = patternsMissed.pop()!;
      if (index < patternsMissed.length) patternsMissed[index] = last;
    }
  }
  const adjustment = clamp(
    net * PATTERN_POINTS_PER_WEIGHT,
    -PATTERN_ADJUSTMENT_CAP,
    PATTERN_ADJUSTMENT_CAP,
  );
  const gestalt = GESTALT_MIN + (GESTALT_MAX - GESTALT_MIN) * outcome.fraction + adjustment;
  return {
    artefactId: artefact.id,
    gestalt: round(softBounded(gestalt)),
    rawScore: round(RAW_SCORE_MAX * outcome.fraction),
    reasons: outcome.reasons.concat(patternsMatched),
    patternsMatched,
    patternsMissed,
    defects,
  };
}

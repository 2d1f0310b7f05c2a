/**
 * The model-free proposer: phrases whose presence separates the artefacts the judge scored
 * high from those it scored low, by the log-odds ratio with an informative Dirichlet prior
 * (Monroe, Colaresi & Quinn 2008, "Fightin' Words", §3.5), applied to presence.
 *
 * A pattern fires on presence, so the event counted is "an artefact contains w", not an
 * occurrence of w among all words: one long artefact repeating a phrase must not make it
 * look general, and a phrase in every artefact of both sides must score 0 however long the
 * high ones are. With y_w^H (y_w^L) the high (low) artefacts containing w, N^H (N^L) the
 * high (low) artefacts, and the prior from the background (every sample, middle scores
 * too: b_w of N artefacts contain w), α_w = s·b_w and α_0 = s·N (s is `miner.priorScale`):
 *
 *   δ_w = ln((y_w^H + α_w) / (N^H + α_0 − y_w^H − α_w)) − ln((y_w^L + α_w) / (N^L + α_0 − y_w^L − α_w))
 *   σ²(δ_w) = Σ over both sides of 1/(y + α_w) + 1/(N + α_0 − y − α_w),   z_w = δ_w / σ(δ_w)
 *
 * Monroe et al. drop the second term of each side's variance, which is negligible for a
 * word among a whole vocabulary; for presence among a few dozen artefacts it is not, so
 * the variance here is the full one (Woolf's, with the prior's pseudo-counts).
 *
 * A phrase is kept when |z| ≥ `miner.zThreshold`, it occurs in at least `miner.minSupport`
 * artefacts of its own side (high for a good pattern, low for a bad one), no live pattern
 * of the target already fires wherever it occurs, and no stronger kept phrase of the same
 * sign is the same signal: two content phrases, one holding the other word for word
 * (`audit trail`, `audit`), or any two found in exactly the same high and low artefacts
 * (`audit trail`, `keeps an audit`).
 * The result does not depend on the order of the samples.
 *
 * Candidates are the content n-grams (`ngrams.ts`), the structural markers (`and`, `or`,
 * `and/or`, `(`, `e.g.`, `etc`: `structural-markers.ts`, the only function-word phrases
 * allowed, so never `the` or `of`), and each conjunction's form anchored to a story's
 * "I want" part (`anchored.ts`), a regex. All are counted by presence and tested alike. A
 * marker and its anchored form are one signal: only the stronger is proposed (the plain
 * marker at equal |z|), whatever their signs.
 */
import { atLeast } from '../../shared/compare.js';
import { SCORING_STATUSES } from '../../cheap/compile.js';
import { USER_REGEX_FLAGS } from '../../cheap/regex-plan.js';
import type { Pattern } from '../../schemas/evaluation.js';
import { FUNCTION_WORDS } from '../../shared/text.js';
import { anchoredByKey, textAnchoredKeys } from './anchored.js';
import { firingTerm, minedPattern } from './mined-pattern.js';
import { containsWords, textNgrams } from './ngrams.js';
import { isStructuralMarker } from './structural-markers.js';
import { duplicateReason, findExactDuplicate, normaliseTerm } from '../pattern-identity.js';
import type { PatternDirection } from '../proposals/prompt.js';
import type {
  LogOdds,
  MinedPhrase,
  MinerConfig,
  MinerContext,
  MinerResult,
  MinerSample,
  PhraseCounts,
} from './types.js';

export { MINER_SOURCE } from './mined-pattern.js';
export type {
  LogOdds,
  MinedPhrase,
  MinerConfig,
  MinerContext,
  MinerResult,
  MinerSample,
  MinerSkip,
  PhraseCounts,
} from './types.js';

/**
 * The log-odds ratio of presence and its z-score for one phrase (formula in the module
 * comment). Not finite when the phrase is in every sample (it separates nothing).
 *
 * @example
 * logOddsZ({ high: 12, low: 0, background: 12, highSamples: 12, lowSamples: 12, backgroundSamples: 28 }, 0.1).z;
 * // ≈ 3.58
 */
export function logOddsZ(counts: PhraseCounts, priorScale: number): LogOdds {
  const alpha = priorScale * counts.background;
  const alpha0 = priorScale * counts.backgroundSamples;
  const side = (y: number, n: number) => {
    const present = y + alpha;
    const absent = n + alpha0 - y - alpha;
    return { logOdds: Math.log(present / absent), variance: 1 / present + 1 / absent };
  };
  const high = side(counts.high, counts.highSamples);
  const low = side(counts.low, counts.lowSamples);
  const delta = high.logOdds - low.logOdds;
  return { delta, z: delta / Math.sqrt(high.variance + low.variance) };
}

/** Per n-gram, the artefacts that contain it. */
function countPresence(groups: readonly Set<string>[]): Map<string, number> {
  const counts = new Map<string, number>();
  for (const ngrams of groups)
    for (const ngram of ngrams) counts.set(ngram, (counts.get(ngram) ?? 0) + 1);
  return counts;
}

/** The live pattern that fires wherever `phrase` occurs, if one does. */
function coveringPattern(phrase: string, live: readonly Pattern[]): Pattern | undefined {
  return live.find(
    (pattern) =>
      pattern.keywords.some((keyword) => containsWords(phrase, normaliseTerm(keyword))) ||
      pattern.phrases.some((term) => phrase.includes(normaliseTerm(term))) ||
      pattern.regexes.some((source) => {
        try {
          return new RegExp(source, USER_REGEX_FLAGS).test(phrase);
        } catch {
          return false;
        }
      }),
  );
}

const round = (value: number, digits: number): number => Number(value.toFixed(digits));
const wordCount = (phrase: string): number => phrase.split(' ').length;
const innerFunctionWords = (phrase: string): number =>
  phrase.split(' ').filter((word) => FUNCTION_WORDS.has(word)).length;

/**
 * Mines phrases that separate high from low judge scores and proposes each as a
 * provisional pattern (`good` for z > 0, `bad` for z < 0): strongest |z| first, then
 * phrases without inner function words, then longer ones, then alphabetically. A score at
 * or above `miner.highScore` is high, else at or below `miner.lowScore` low; the rest only
 * inform the prior.
 *
 * @example
 * const { patterns, phrases } = mineDiscriminativePhrases(
 *   pairs.map((pair) => ({ artefactId: pair.artefactId, text: patternText(byId.get(pair.artefactId)!), judgeScore: pair.expensive })),
 *   config,
 *   { existing: set.patterns, iteration: 5, now: clock.now() },
 * );
 * phrases[0]; // { phrase: 'audit trail', type: 'good', z: 3.58, highDocs: 12, lowDocs: 0, ... }
 */
export function mineDiscriminativePhrases(
  samples: readonly MinerSample[],
  config: MinerConfig,
  context: MinerContext,
): MinerResult {
  const target = context.target ?? 'document:user_story';
  const sides = splitBySide(samples, config);
  const result: MinerResult = {
    patterns: [],
    phrases: [],
    skipped: [],
    highSamples: sides.high.length,
    lowSamples: sides.low.length,
  };
  if (sides.high.length === 0 || sides.low.length === 0) return result;
  return {
    ...result,
    ...choosePhrases(scorePhrases(sides, config), sides, target, config, context),
  };
}

/** A sample with its n-grams. */
interface Gathered {
  sample: MinerSample;
  ngrams: Set<string>;
}

/** Every sample with its n-grams, and the high and low ones (the rest only inform the prior). */
interface Sides {
  all: Gathered[];
  high: Gathered[];
  low: Gathered[];
}

function splitBySide(samples: readonly MinerSample[], config: MinerConfig): Sides {
  const all = samples.map((sample) => {
    const ngrams = textNgrams(sample.text, config.miner.maxNgram);
    for (const key of textAnchoredKeys(sample.text)) ngrams.add(key);
    return { sample, ngrams };
  });
  const high = all.filter(({ sample }) => sample.judgeScore >= config.miner.highScore);
  const low = all.filter(
    ({ sample }) =>
      sample.judgeScore < config.miner.highScore && sample.judgeScore <= config.miner.lowScore,
  );
  return { all, high, low };
}

/**
 * The phrases significant at `miner.zThreshold` and supported on their own side, strongest
 * first. Equal evidence favours a phrase over a regex (the simpler form), then one without
 * inner function words (`audit trail` over `keeps an audit`), then the longer one: it
 * fires on fewer artefacts it was not seen in.
 */
function scorePhrases({ all, high, low }: Sides, config: MinerConfig): MinedPhrase[] {
  const highCounts = countPresence(high.map((entry) => entry.ngrams));
  const lowCounts = countPresence(low.map((entry) => entry.ngrams));
  const background = countPresence(all.map((entry) => entry.ngrams));

  const scored: MinedPhrase[] = [];
  for (const phrase of new Set([...highCounts.keys(), ...lowCounts.keys()])) {
    const highDocs = highCounts.get(phrase) ?? 0;
    const lowDocs = lowCounts.get(phrase) ?? 0;
    const { delta, z } = logOddsZ(
      {
        high: highDocs,
        low: lowDocs,
        background: background.get(phrase) ?? 0,
        highSamples: high.length,
        lowSamples: low.length,
        backgroundSamples: all.length,
      },
      config.miner.priorScale,
    );
    if (!Number.isFinite(z) || !atLeast(Math.abs(z), config.miner.zThreshold)) continue;
    const type: PatternDirection = z > 0 ? 'good' : 'bad';
    if ((type === 'good' ? highDocs : lowDocs) < config.miner.minSupport) continue;
    const anchored = anchoredByKey(phrase);
    scored.push({
      phrase,
      ...(anchored ? { regex: anchored.source, marker: anchored.marker } : {}),
      type,
      z,
      delta,
      highDocs,
      lowDocs,
      highSamples: high.length,
      lowSamples: low.length,
    });
  }
  return scored.sort(
    (a, b) =>
      Math.abs(b.z) - Math.abs(a.z) ||
      Number(a.regex !== undefined) - Number(b.regex !== undefined) ||
      innerFunctionWords(a.phrase) - innerFunctionWords(b.phrase) ||
      wordCount(b.phrase) - wordCount(a.phrase) ||
      (a.phrase < b.phrase ? -1 : a.phrase > b.phrase ? 1 : 0),
  );
}

/**
 * The scored phrases kept as patterns, strongest first, and why the others were not: the
 * same signal as a phrase found in the same artefacts, a duplicate of an existing pattern,
 * covered by a live one, the other form of a stronger kept marker, or holding (held by) a
 * stronger kept content phrase of the same sign.
 */
function choosePhrases(
  scored: readonly MinedPhrase[],
  { high, low }: Sides,
  target: string,
  config: MinerConfig,
  context: MinerContext,
): Pick<MinerResult, 'patterns' | 'phrases' | 'skipped'> {
  const chosen: Pick<MinerResult, 'patterns' | 'phrases' | 'skipped'> = {
    patterns: [],
    phrases: [],
    skipped: [],
  };
  const live = context.existing.filter(
    (pattern) => SCORING_STATUSES.has(pattern.status) && pattern.appliesTo.includes(target),
  );
  const sides = [...high, ...low];
  /** The high and low artefacts holding a phrase, as one comparable key. */
  const occurrences = (phrase: string): string =>
    sides.flatMap((entry, index) => (entry.ngrams.has(phrase) ? [index] : [])).join(',');
  /** Per set of artefacts: the first phrase found there, and why it was skipped, if it was. */
  const decided = new Map<string, { phrase: string; reason?: string }>();
  for (const mined of scored) {
    const skip = (reason: string): void => {
      chosen.skipped.push({ phrase: mined.phrase, z: round(mined.z, 4), reason });
    };
    const where = occurrences(mined.phrase);
    const twin = decided.get(where);
    if (twin) {
      skip(
        `the same signal as "${twin.phrase}" (found in the same artefacts)${twin.reason ? `, which ${twin.reason}` : ''}`,
      );
      continue;
    }
    const pattern = minedPattern(mined, target, config, context);
    const reason = existingReason(pattern, firingTerm(mined), context.existing, live);
    if (reason !== undefined) {
      decided.set(where, { phrase: mined.phrase, reason });
      skip(reason);
      continue;
    }
    const alternative = chosen.phrases.find((kept) => isOtherForm(kept, mined));
    if (alternative) {
      skip(
        `the same marker as the stronger "${alternative.phrase}" (a marker and its form in the "I want" part: only the better is proposed)`,
      );
      continue;
    }
    const overlapping = chosen.phrases.find(
      (kept) =>
        kept.type === mined.type &&
        isContent(kept) &&
        isContent(mined) &&
        (containsWords(kept.phrase, mined.phrase) || containsWords(mined.phrase, kept.phrase)),
    );
    if (overlapping) {
      skip(`the same signal as the stronger phrase "${overlapping.phrase}" (one holds the other)`);
      continue;
    }
    decided.set(where, { phrase: mined.phrase });
    chosen.phrases.push(mined);
    chosen.patterns.push(pattern);
  }
  return chosen;
}

/**
 * Whether a candidate is a content n-gram: one holding another is the same signal. A
 * marker is not held by the phrase it sits in (`and` in `detect and respond` is far more
 * general); the two are one signal only when found in the same artefacts.
 */
const isContent = (mined: MinedPhrase): boolean =>
  mined.regex === undefined && !isStructuralMarker(mined.phrase);

/** Whether one is a marker and the other its anchored form (either way round). */
function isOtherForm(a: MinedPhrase, b: MinedPhrase): boolean {
  return (a.regex === undefined) !== (b.regex === undefined) && firingTerm(a) === firingTerm(b);
}

/** Why an existing pattern makes a mined one needless: it duplicates it, or covers it. */
function existingReason(
  pattern: Pattern,
  phrase: string,
  existing: readonly Pattern[],
  live: readonly Pattern[],
): string | undefined {
  const duplicate = findExactDuplicate(pattern, existing);
  if (duplicate) return duplicateReason(duplicate);
  const covering = coveringPattern(phrase, live);
  return covering ? `is covered by ${covering.id}, which fires wherever it occurs` : undefined;
}

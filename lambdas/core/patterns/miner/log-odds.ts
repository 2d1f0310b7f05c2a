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
 * sign is the same signal: one holds the other word for word (`audit trail`, `audit`), or
 * both occur in exactly the same high and low artefacts (`audit trail`, `keeps an audit`).
 * The result does not depend on the order of the samples.
 */
import { atLeast } from '../../shared/compare.js';
import { SCORING_STATUSES } from '../../cheap/compile.js';
import { USER_REGEX_FLAGS } from '../../cheap/regex-plan.js';
import { PatternSchema, type Pattern } from '../../schemas/evaluation.js';
import type { EvaluationConfig } from '../../schemas/evaluation-config.js';
import { FUNCTION_WORDS } from '../../shared/text.js';
import { containsWords, textNgrams } from './ngrams.js';
import {
  duplicateReason,
  findExactDuplicate,
  learnedPatternId,
  normaliseTerm,
} from '../pattern-identity.js';
import type { PatternDirection } from '../proposals/prompt.js';

export const MINER_SOURCE = 'log_odds_miner';

export interface MinerSample {
  artefactId: string;
  /** The artefact's pattern text (see `patternText`). */
  text: string;
  judgeScore: number;
}

export interface MinerContext {
  /** Every pattern of the current set (duplicates of any status, coverage by live ones). */
  existing: readonly Pattern[];
  iteration: number;
  now: Date;
  /** The `appliesTo` target of the samples. @default 'document:user_story' */
  target?: string;
}

/** The miner's rules, and the proposals' initial weight for what it finds. */
export type MinerConfig = Pick<EvaluationConfig, 'miner' | 'proposals'>;

export interface PhraseCounts {
  /** High (low) artefacts containing the phrase. */
  high: number;
  low: number;
  /** Artefacts of any score containing it. */
  background: number;
  /** High, low and all artefacts. */
  highSamples: number;
  lowSamples: number;
  backgroundSamples: number;
}

export interface LogOdds {
  /** δ: positive when the phrase leans high. */
  delta: number;
  z: number;
}

export interface MinedPhrase {
  phrase: string;
  type: PatternDirection;
  z: number;
  delta: number;
  /** High and low artefacts containing the phrase, and how many there were. */
  highDocs: number;
  lowDocs: number;
  highSamples: number;
  lowSamples: number;
}

export interface MinerSkip {
  phrase: string;
  z: number;
  reason: string;
}

export interface MinerResult {
  /** Provisional patterns, strongest |z| first (then longer, then alphabetical). */
  patterns: Pattern[];
  /** The statistics behind each pattern, in the same order. */
  phrases: MinedPhrase[];
  /** Significant, supported phrases that were not kept, and why. */
  skipped: MinerSkip[];
  highSamples: number;
  lowSamples: number;
}

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

function describe(mined: MinedPhrase, config: MinerConfig): string {
  const z = `${mined.z >= 0 ? '+' : ''}${mined.z.toFixed(2)}`;
  return (
    `"${mined.phrase}" separates judge scores: log-odds z = ${z} (informative Dirichlet prior, ` +
    `Monroe et al. 2008); in ${mined.highDocs} of ${mined.highSamples} high-scored (judge ≥ ${config.miner.highScore}) ` +
    `and ${mined.lowDocs} of ${mined.lowSamples} low-scored (judge ≤ ${config.miner.lowScore}) artefacts`
  );
}

function minedPattern(
  mined: MinedPhrase,
  target: string,
  config: MinerConfig,
  context: MinerContext,
): Pattern {
  const oneWord = !mined.phrase.includes(' ');
  return PatternSchema.parse({
    id: learnedPatternId({ term: mined.phrase }),
    type: mined.type,
    description: describe(mined, config),
    appliesTo: [target],
    category: 'mined_phrases',
    keywords: oneWord ? [mined.phrase] : [],
    phrases: oneWord ? [] : [mined.phrase],
    weight: config.proposals.initialWeight,
    source: MINER_SOURCE,
    discoveredAt: context.now.toISOString(),
    learnedIteration: context.iteration,
    status: 'provisional',
  });
}

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
  const all = samples.map((sample) => ({
    sample,
    ngrams: textNgrams(sample.text, config.miner.maxNgram),
  }));
  const high = all.filter(({ sample }) => sample.judgeScore >= config.miner.highScore);
  const low = all.filter(
    ({ sample }) =>
      sample.judgeScore < config.miner.highScore && sample.judgeScore <= config.miner.lowScore,
  );
  return { all, high, low };
}

/**
 * The phrases significant at `miner.zThreshold` and supported on their own side, strongest
 * first. Equal evidence favours a phrase without inner function words (`audit trail` over
 * `keeps an audit`), then the longer one: it fires on fewer artefacts it was not seen in.
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
    scored.push({
      phrase,
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
      innerFunctionWords(a.phrase) - innerFunctionWords(b.phrase) ||
      wordCount(b.phrase) - wordCount(a.phrase) ||
      (a.phrase < b.phrase ? -1 : a.phrase > b.phrase ? 1 : 0),
  );
}

/**
 * The scored phrases kept as patterns, strongest first, and why the others were not: the
 * same signal as a phrase found in the same artefacts, a duplicate of an existing pattern,
 * covered by a live one, or holding (held by) a stronger kept phrase of the same sign.
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
    const reason = existingReason(pattern, mined.phrase, context.existing, live);
    if (reason !== undefined) {
      decided.set(where, { phrase: mined.phrase, reason });
      skip(reason);
      continue;
    }
    const overlapping = chosen.phrases.find(
      (kept) =>
        kept.type === mined.type &&
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

/**
 * A mined candidate as a provisional pattern: a keyword (one word, or a structural
 * marker, which must fire only where the miner counted it), a phrase (several words) or a
 * regex (a marker anchored to a story's "I want" part), described by its statistics.
 */
import { PatternSchema, type Pattern } from '../../schemas/evaluation.js';
import { learnedPatternId } from '../pattern-identity.js';
import { isStructuralMarker } from './structural-markers.js';
import type { MinedPhrase, MinerConfig, MinerContext } from './types.js';

export const MINER_SOURCE = 'log_odds_miner';

/** What a candidate fires on where it fires: its marker for an anchored form. */
export const firingTerm = (mined: MinedPhrase): string => mined.marker ?? mined.phrase;

function describe(mined: MinedPhrase, config: MinerConfig): string {
  const z = `${mined.z >= 0 ? '+' : ''}${mined.z.toFixed(2)}`;
  const what =
    mined.marker === undefined
      ? `"${mined.phrase}"`
      : `${mined.phrase} ("${mined.marker}" in the "I want" part of a story)`;
  return (
    `${what} separates judge scores: log-odds z = ${z} (informative Dirichlet prior, ` +
    `Monroe et al. 2008); in ${mined.highDocs} of ${mined.highSamples} high-scored (judge ≥ ${config.miner.highScore}) ` +
    `and ${mined.lowDocs} of ${mined.lowSamples} low-scored (judge ≤ ${config.miner.lowScore}) artefacts`
  );
}

/**
 * The provisional pattern of a mined candidate.
 *
 * @example
 * minedPattern(mined, 'document:user_story', config, context).keywords; // ['and']
 */
export function minedPattern(
  mined: MinedPhrase,
  target: string,
  config: MinerConfig,
  context: MinerContext,
): Pattern {
  // A marker is a keyword whatever its words, so that it fires only where it was counted.
  const keyword = !mined.phrase.includes(' ') || isStructuralMarker(mined.phrase);
  const { regex } = mined;
  return PatternSchema.parse({
    id: learnedPatternId(regex === undefined ? { term: mined.phrase } : { regex }),
    type: mined.type,
    description: describe(mined, config),
    appliesTo: [target],
    category: 'mined_phrases',
    keywords: regex === undefined && keyword ? [mined.phrase] : [],
    phrases: regex === undefined && !keyword ? [mined.phrase] : [],
    regexes: regex === undefined ? [] : [regex],
    weight: config.proposals.initialWeight,
    source: MINER_SOURCE,
    discoveredAt: context.now.toISOString(),
    learnedIteration: context.iteration,
    status: 'provisional',
  });
}

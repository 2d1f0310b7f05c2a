/**
 * A backlog of one-sentence stories (stories.ts, as the corpus's descriptions), generated
 * deterministically, with near-duplicates at a realistic rate: every hundredth story repeats
 * an earlier one with one change, half for another role (QUS's "same story for a different
 * role", a duplicate) and half with one word of it changed (close, and sharing its rare
 * words, so the unique detector's candidate filtering has pairs to check and drop).
 */
import { sentenceStory } from '../../lambdas/core/calibration/story-inputs.js';
import type { Artefact } from '../../lambdas/core/schemas/evaluation.js';
import { pick, seededRandom, type Random } from '../../test/support/seeded-random.js';
import { storySentence } from './stories.js';
import { ROLES, WORDS } from './vocabulary.js';

/** One story in this many repeats an earlier one with one change. */
export const DUPLICATE_EVERY = 100;

export interface NearDuplicate {
  readonly index: number;
  /** The earlier story it repeats. */
  readonly of: number;
  readonly changed: 'role' | 'word';
}

export interface Backlog {
  readonly sentences: readonly string[];
  readonly duplicates: readonly NearDuplicate[];
}

const DOMAIN = new Set(WORDS);
const ROLE = /^As an? ([^,]+),/;

/**
 * The sentence with one domain word of its means or ends (after the role's comma, if any)
 * swapped for another; a plural keeps its "s".
 */
function changeWord(random: Random, sentence: string): string {
  const tokens = sentence.split(' ');
  const afterRole = ROLE.test(sentence) ? tokens.findIndex((token) => token.endsWith(',')) : -1;
  const domain = tokens
    .map((token, at) => ({ at, word: token.replace(/s?[.,]?$/, '') }))
    .filter(({ at, word }) => at > afterRole && DOMAIN.has(word));
  const { at, word } = pick(random, domain);
  let other = pick(random, WORDS);
  while (other === word) other = pick(random, WORDS);
  tokens[at] = tokens[at]!.replace(word, other);
  return tokens.join(' ');
}

function changeRole(random: Random, sentence: string): string | null {
  const role = ROLE.exec(sentence)?.[1];
  if (role === undefined) return null;
  let other = pick(random, ROLES);
  while (other === role) other = pick(random, ROLES);
  return sentence.replace(ROLE, `As ${/^[aeiou]/.test(other) ? 'an' : 'a'} ${other},`);
}

/**
 * `count` story sentences; story `i` with `i % DUPLICATE_EVERY === DUPLICATE_EVERY - 1`
 * repeats an earlier one (never itself a repeat) with its role or one word changed.
 *
 * @example
 * makeBacklog(10_000, 7).duplicates.length; // 100
 */
export function makeBacklog(count: number, seed: number): Backlog {
  const random = seededRandom(seed);
  const sentences: string[] = [];
  const duplicates: NearDuplicate[] = [];
  for (let index = 0; index < count; index += 1) {
    if (index % DUPLICATE_EVERY !== DUPLICATE_EVERY - 1) {
      sentences.push(storySentence(random));
      continue;
    }
    // An original: one that is not itself a repeat.
    let of = Math.floor(random() * index);
    if (of % DUPLICATE_EVERY === DUPLICATE_EVERY - 1) of -= 1;
    const byRole = random() < 0.5 ? changeRole(random, sentences[of]!) : null;
    sentences.push(byRole ?? changeWord(random, sentences[of]!));
    duplicates.push({ index, of, changed: byRole === null ? 'word' : 'role' });
  }
  return { sentences, duplicates };
}

/** The backlog as `ralph eval` reads a folder of .txt stories: one sentence each, by name. */
export function backlogArtefacts(backlog: Backlog): Artefact[] {
  return backlog.sentences.map((sentence, index) => sentenceStory(storyName(index), sentence));
}

/** A story's id and file name: sorted by name is sorted by index. */
export const storyName = (index: number): string => `US-${String(index).padStart(5, '0')}`;

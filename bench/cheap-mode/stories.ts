/**
 * User-story sentences as QUS reads them, at the rates of a real backlog: most in Connextra
 * form ("As a <role>, I want to <means>, so that <ends>."), some with a conjunction in the
 * means (the UStAI fixture labels ~16% atomic defects), brackets, an example or a second
 * sentence (~6% minimal), another means marker ("I need to", "I can"), no ends, no full
 * stop, and some not in the template at all ("Export the billing report on the invoice page.").
 */
import { pick, type Random } from '../../test/support/seeded-random.js';
import { ROLES, WORDS } from './vocabulary.js';

/** What a story's means does: the verbs of "I want to …". */
const ACTIONS = [
  'see',
  'export',
  'filter',
  'search',
  'edit',
  'archive',
  'approve',
  'share',
  'download',
  'review',
  'schedule',
  'compare',
  'track',
  'configure',
  'receive',
];
/** What a story's ends opens with, after "so that". */
const BENEFITS = ['I can', 'I do not have to', 'my team can', 'we can', 'customers can', 'I never'];
const NOTES = ['such as', 'e.g.', 'for example'];
const SECOND_SENTENCES = ['This is urgent.', 'See the design.', 'Ask legal first.'];

/** The per-story odds; each roll is independent, as defects are in real backlogs. */
export const STORY_RATES = {
  /** Not "As a … I want …" at all: an imperative or a statement. */
  notConnextra: 0.08,
  /** "and" or "or" joining a second feature in the means. */
  conjunction: 0.16,
  /** Brackets, an example marker or a second sentence. */
  minimal: 0.06,
  /** No "so that …". */
  noEnds: 0.1,
  /** "I need to" or "I can" where the backlog says "I want to". */
  otherMarker: 0.08,
  /** No full stop at the end. */
  noFullStop: 0.03,
} as const;

const object = (random: Random): string =>
  random() < 0.5
    ? `the ${pick(random, WORDS)} ${pick(random, WORDS)}`
    : `${pick(random, WORDS)} ${pick(random, WORDS)}s for each ${pick(random, WORDS)}`;

function means(random: Random): string {
  let text = `${pick(random, ACTIONS)} ${object(random)}`;
  if (random() < STORY_RATES.conjunction)
    text += ` ${random() < 0.85 ? 'and' : 'or'} ${pick(random, ACTIONS)} ${object(random)}`;
  return text;
}

/** An aside QUS's minimal criterion reports: brackets, an example, or a second sentence. */
function aside(random: Random): { inline: string; after: string } {
  const kind = random();
  const word = pick(random, WORDS);
  if (kind < 0.5) return { inline: ` (${word.toUpperCase()})`, after: '' };
  if (kind < 0.75) return { inline: ` ${pick(random, NOTES)} ${word}`, after: '' };
  return { inline: '', after: ` ${pick(random, SECOND_SENTENCES)}` };
}

/**
 * One story sentence (or two, when the aside is a second sentence).
 *
 * @example
 * storySentence(seededRandom(1)); // 'As a customer, I want to export the invoice report, so that I can …'
 */
export function storySentence(random: Random): string {
  const extra = random() < STORY_RATES.minimal ? aside(random) : { inline: '', after: '' };
  const stop = random() < STORY_RATES.noFullStop ? '' : '.';
  if (random() < STORY_RATES.notConnextra) {
    const action = means(random);
    return `${action[0]!.toUpperCase()}${action.slice(1)}${extra.inline} on the ${pick(random, WORDS)} page${stop}${extra.after}`;
  }
  const role = pick(random, ROLES);
  const article = /^[aeiou]/.test(role) ? 'an' : 'a';
  const marker =
    random() < STORY_RATES.otherMarker ? pick(random, ['I need to', 'I can']) : 'I want to';
  const ends =
    random() < STORY_RATES.noEnds
      ? ''
      : `, so that ${pick(random, BENEFITS)} ${pick(random, ACTIONS)} ${object(random)}`;
  return `As ${article} ${role}, ${marker} ${means(random)}${extra.inline}${ends}${stop}${extra.after}`;
}

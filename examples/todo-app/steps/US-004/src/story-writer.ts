import type { Feedback } from './feedback.js';
import type { StoryDocument } from './story.js';
import { topicsIn, type Topic } from './feedback-topics.js';

/** Words that mark the sentence in which a customer says what goes wrong for them. */
const PROBLEM =
  /\b(?:can't|cannot|have to|has to|lost|by hand|by accident|takes ages|annoying|frustrat\w*|hard to|wrong|crash\w*|went blank)\b/i;
const TITLE_LIMIT = 60;
/** Scope: more than this is more than one story's worth, for one to three days of work. */
export const MAX_CRITERIA = 5;
export const MAX_SERVICES = 2;

/**
 * Turns one piece of customer feedback into a user story: a title, "As a <role>, I want
 * ..., so that ...", what goes wrong for the customer today ("Today I have to ...") with
 * their own sentence about the problem, the topic's testable acceptance criteria, and
 * where in the code it belongs.
 *
 * One story, one concern: feedback that raises several topics becomes a story about the
 * first, and names the others as split out (each is a story of its own). Feedback that
 * fits no topic gets no pain, criteria or technical area: the writer does not invent them.
 */
export function writeStory(feedback: Feedback): StoryDocument {
  const [topic, ...others] = topicsIn(feedback.text);
  return {
    id: `story-${feedback.id}`,
    title: topic?.title ?? clip(sentencesOf(feedback.text)[0] ?? feedback.text),
    description: descriptionOf(feedback, topic, others),
    acceptance_criteria: topic?.criteria.slice(0, MAX_CRITERIA) ?? [],
    technical_area: topic?.technicalArea ?? null,
    services: topic?.services.slice(0, MAX_SERVICES) ?? [],
    source_conversations: [feedback.id],
  };
}

function descriptionOf(
  feedback: Feedback,
  topic: Topic | undefined,
  others: readonly Topic[],
): string {
  const want = topic?.want ?? 'this feedback looked into';
  const outcome = topic?.outcome ?? 'the todo app does what I expect';
  const story = `${asA(feedback.customer.role ?? 'todo app user')}, I want ${want}, so that ${outcome}.`;
  // The pain is a paragraph of its own: the story itself stays one sentence (QUS minimal).
  const parts = topic ? [story, `Today I have to ${topic.pain}.`] : [story];
  const problem = sentencesOf(feedback.text).find((sentence) => PROBLEM.test(sentence));
  if (problem) parts.push(`From the ${feedback.channel}: "${problem}"`);
  if (others.length > 0)
    parts.push(
      `Split out into stories of their own: ${others.map((other) => `"${other.title}"`).join('; ')}.`,
    );
  return parts.join('\n\n');
}

function asA(role: string): string {
  return `As ${/^[aeiou]/i.test(role) ? 'an' : 'a'} ${role}`;
}

function sentencesOf(text: string): string[] {
  return text
    .split(/(?<=[.!?])\s+/)
    .map((sentence) => sentence.trim())
    .filter((sentence) => sentence !== '');
}

/** Cut at a word boundary so the title stays a title. */
function clip(text: string): string {
  if (text.length <= TITLE_LIMIT) return text;
  const cut = text.slice(0, TITLE_LIMIT);
  return cut.slice(0, Math.max(cut.lastIndexOf(' '), 1)).replace(/[\s,;:.!?]+$/, '');
}

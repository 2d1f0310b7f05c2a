import type { Feedback } from './feedback.js';
import type { StoryDocument } from './story.js';
import { topicsIn, type Topic } from './feedback-topics.js';

/** Words that mark the sentence in which a customer says what goes wrong for them. */
const PROBLEM =
  /\b(?:can't|cannot|have to|has to|lost|by hand|by accident|takes ages|annoying|frustrat\w*|hard to|wrong|crash\w*|went blank)\b/i;
const TITLE_LIMIT = 60;

/**
 * Turns one piece of customer feedback into a user story: a title, "As a <role>, I want
 * ..., so that ..." from the topics the feedback raises with the customer's own sentence
 * about the problem, and each topic's testable acceptance criteria. Feedback that fits no
 * topic gets no criteria: the writer does not invent them.
 */
export function writeStory(feedback: Feedback): StoryDocument {
  const topics = topicsIn(feedback.text);
  return {
    id: `story-${feedback.id}`,
    title: titleOf(feedback, topics),
    description: descriptionOf(feedback, topics),
    acceptance_criteria: topics.flatMap((topic) => topic.criteria),
    technical_area: null,
    services: [],
    source_conversations: [feedback.id],
  };
}

function titleOf(feedback: Feedback, topics: readonly Topic[]): string {
  if (topics.length === 0) return clip(sentencesOf(feedback.text)[0] ?? feedback.text);
  return topics
    .map((topic, index) => (index === 0 ? topic.title : lowerFirst(topic.title)))
    .join(' and ');
}

function descriptionOf(feedback: Feedback, topics: readonly Topic[]): string {
  const wants = topics.length === 0 ? ['this feedback looked into'] : topics.map((t) => t.want);
  const outcomes =
    topics.length === 0 ? ['the todo app does what I expect'] : topics.map((t) => t.outcome);
  const story = `${asA(feedback.customer.role ?? 'todo app user')}, I want ${wants.join(' and ')}, so that ${outcomes.join(' and ')}.`;
  const problem = sentencesOf(feedback.text).find((sentence) => PROBLEM.test(sentence));
  return problem ? `${story}\n\nFrom the ${feedback.channel}: "${problem}"` : story;
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

function lowerFirst(text: string): string {
  return text.charAt(0).toLowerCase() + text.slice(1);
}

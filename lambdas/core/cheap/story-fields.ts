/**
 * Reading a user-story document the way the design's evaluator does (`story.get(field,
 * default)`): a missing field, or one of the wrong type, reads as empty. A malformed
 * document therefore scores low instead of failing the whole evaluation step, which is
 * what a judge would do with it too.
 */
import type { StoryDocument } from '../schemas/evaluation.js';

export interface StoryFields {
  readonly title: string;
  readonly description: string;
  /** The criteria that are strings (the count the heuristics use). */
  readonly acceptanceCriteria: readonly string[];
  readonly technicalArea: string;
  readonly services: readonly string[];
}

const text = (value: unknown): string => (typeof value === 'string' ? value : '');

function strings(value: unknown): readonly string[] {
  if (!Array.isArray(value)) return [];
  // The common case needs no copy.
  return value.every((item) => typeof item === 'string')
    ? (value as string[])
    : value.filter((item): item is string => typeof item === 'string');
}

/**
 * The fields the heuristics and the patterns read, from a document's `content`.
 *
 * @example
 * readStoryFields({ title: 'Add export', acceptance_criteria: ['a', 7] }).acceptanceCriteria
 * // ['a']
 */
export function readStoryFields(content: unknown): StoryFields {
  if (typeof content !== 'object' || content === null) return readStoryFields({});
  const story = content as Partial<Record<keyof StoryDocument, unknown>>;
  return {
    title: text(story.title),
    description: text(story.description),
    acceptanceCriteria: strings(story.acceptance_criteria),
    technicalArea: text(story.technical_area),
    services: strings(story.services),
  };
}

/**
 * The text patterns are matched against: title, description, criteria, technical area
 * and services, one per line (ids and source conversations are references, not content).
 *
 * @example
 * storyText(readStoryFields({ title: 'Add export', description: 'Users will...' }))
 */
export function storyText(story: StoryFields): string {
  // One join makes one flat string: concatenation would leave a tree of pieces that
  // lower-casing and every regex run would each flatten again.
  const parts = [story.title, story.description];
  for (const criterion of story.acceptanceCriteria) parts.push(criterion);
  parts.push(story.technicalArea);
  for (const service of story.services) parts.push(service);
  return parts.join('\n');
}

/** Deep enough for any document a pipeline writes; guards against pathological nesting. */
const MAX_DEPTH = 32;

/**
 * The text of a document without a rubric: a string as it is, otherwise every string
 * inside it (depth first, in key order), one per line.
 *
 * @example
 * documentText({ summary: 'Fix login', steps: ['a', 'b'] }) // 'Fix login\na\nb'
 */
export function documentText(content: unknown): string {
  const parts: string[] = [];
  const walk = (value: unknown, depth: number): void => {
    if (typeof value === 'string') parts.push(value);
    else if (depth >= MAX_DEPTH || typeof value !== 'object' || value === null) return;
    else
      for (const item of Array.isArray(value) ? value : Object.values(value)) walk(item, depth + 1);
  };
  walk(content, 0);
  return parts.join('\n');
}

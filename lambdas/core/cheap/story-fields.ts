/**
 * Reading a user-story document the way the design's evaluator does (`story.get(field,
 * default)`), with one difference: a field the document does not have is absent, not
 * empty. A one-sentence story has no title, criteria or technical area, and is not marked
 * down for lacking them; a field that is there but of the wrong type reads as empty, so a
 * malformed document scores low instead of failing the whole evaluation step, which is what
 * a judge would do with it too. A document that is a bare string is its description.
 */
import type { StoryDocument } from '../schemas/evaluation.js';

/** Any character that is not white space: a test, where `trim()` would copy the text. */
const NOT_BLANK = /\S/;

export interface StoryFields {
  /** `undefined`: the document has no such field (neutral in scoring). */
  readonly title: string | undefined;
  readonly description: string | undefined;
  /** The criteria that are strings (the count the heuristics use). */
  readonly acceptanceCriteria: readonly string[] | undefined;
  readonly technicalArea: string | undefined;
  readonly services: readonly string[];
  /** The story's sentence, as QUS reads it: the description, else the title. */
  readonly sentence: string;
}

// `undefined` is a field the document does not have; `null` is one it has, left empty.
const text = (value: unknown): string | undefined =>
  value === undefined ? undefined : typeof value === 'string' ? value : '';

function strings(value: unknown): readonly string[] | undefined {
  if (value === undefined) return undefined;
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
 * readStoryFields('As a user, I want export.').title // undefined
 */
export function readStoryFields(content: unknown): StoryFields {
  if (typeof content === 'string') return readStoryFields({ description: content });
  if (typeof content !== 'object' || content === null) return readStoryFields({});
  const story = content as Partial<Record<keyof StoryDocument, unknown>>;
  const title = text(story.title);
  const description = text(story.description);
  return {
    title,
    description,
    acceptanceCriteria: strings(story.acceptance_criteria),
    technicalArea: text(story.technical_area),
    services: strings(story.services) ?? [],
    sentence:
      description !== undefined && NOT_BLANK.test(description) ? description : (title ?? ''),
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
  const parts = [story.title ?? '', story.description ?? ''];
  for (const criterion of story.acceptanceCriteria ?? []) parts.push(criterion);
  parts.push(story.technicalArea ?? '');
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

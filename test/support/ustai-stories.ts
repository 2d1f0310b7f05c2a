/**
 * The UStAI user stories with their human QUS labels (`test/fixtures/stories/ustai/`, see
 * its SOURCE.md): real one-sentence stories to test QUS verdicts against.
 */
import { readFileSync } from 'node:fs';
import { parseCsv } from '../../lambdas/core/calibration/csv.js';
import type { StoryDocument } from '../../lambdas/core/schemas/evaluation.js';

const FILE = 'test/fixtures/stories/ustai/UStAI-annotated_updated.csv';

/** One labelled story: its text, and whether the annotators found it atomic and minimal. */
export interface UstaiStory {
  id: string;
  text: string;
  /** The `atomic` column: `atomic`, or what breaks it (`conjunctions`). */
  atomic: string;
  /** The `minimal` column: `minimal`, or what breaks it (`brackets`, `example`, ...). */
  minimal: string;
}

/**
 * The labelled story whose text is `text` (it must be in the file).
 *
 * @example
 * ustaiStory('As an endocrinologist, I want access ...').minimal; // 'minimal'
 */
export function ustaiStory(text: string): UstaiStory {
  const found = ustaiStories().find((story) => story.text === text);
  if (!found) throw new Error(`no UStAI story reads "${text}"`);
  return found;
}

/** A labelled story as the bare one-sentence user story an evaluation reads. */
export function asStoryDocument(story: UstaiStory): StoryDocument {
  return {
    id: story.id,
    title: story.text,
    description: story.text,
    acceptance_criteria: [],
    services: [],
    source_conversations: [],
  };
}

let cache: UstaiStory[] | undefined;

function ustaiStories(): UstaiStory[] {
  if (cache) return cache;
  const { header, records } = parseCsv(readFileSync(FILE, 'utf8'), FILE);
  const column = (name: string): number => header.fields.indexOf(name);
  const [id, text, atomic, minimal] = ['ID', 'User story', 'atomic', 'minimal'].map(column);
  cache = records
    .map((record) => record.fields)
    .filter((row) => (row[text as number] ?? '') !== '')
    .map((row) => ({
      id: row[id as number] ?? '',
      text: (row[text as number] ?? '').trim(),
      atomic: row[atomic as number] ?? '',
      minimal: row[minimal as number] ?? '',
    }));
  return cache;
}

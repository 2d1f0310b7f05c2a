/**
 * The UStAI user stories with their human QUS labels (`test/fixtures/stories/ustai/`, see
 * its SOURCE.md): real one-sentence stories to test QUS verdicts against.
 */
import { readFileSync } from 'node:fs';
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
  const [header = [], ...rows] = parseCsv(readFileSync(FILE, 'utf8'));
  const column = (name: string): number => header.indexOf(name);
  const [id, text, atomic, minimal] = ['ID', 'User story', 'atomic', 'minimal'].map(column);
  cache = rows
    .filter((row) => (row[text as number] ?? '') !== '')
    .map((row) => ({
      id: row[id as number] ?? '',
      text: (row[text as number] ?? '').trim(),
      atomic: row[atomic as number] ?? '',
      minimal: row[minimal as number] ?? '',
    }));
  return cache;
}

/** RFC 4180: fields in double quotes may hold commas, line breaks and doubled quotes. */
function parseCsv(text: string): string[][] {
  const rows: string[][] = [];
  let row: string[] = [];
  let field = '';
  let quoted = false;
  for (let index = 0; index < text.length; index += 1) {
    const char = text[index];
    if (quoted) {
      if (char !== '"') field += char;
      else if (text[index + 1] === '"') {
        field += '"';
        index += 1;
      } else quoted = false;
    } else if (char === '"') quoted = true;
    else if (char === ',') {
      row.push(field);
      field = '';
    } else if (char === '\n') {
      rows.push([...row, field]);
      row = [];
      field = '';
    } else if (char !== '\r') field += char;
  }
  if (field !== '' || row.length > 0) rows.push([...row, field]);
  return rows;
}

/**
 * A label file as the stories to score: each row's story sentence becomes a `user_story`
 * document, so that one file is both the input and its labels (`ralph eval labels.csv
 * --labels labels.csv`, `ralph eval calibrate`).
 */
import type { LabelFile } from './labels.js';
import { InvalidInputError } from '../errors.js';
import type { Artefact } from '../schemas/evaluation.js';

/**
 * One artefact per row: id = the `id` cell, else `row-N` (N the 1-based row after the
 * header); the content is the sentence alone, no field the file does not give.
 *
 * @example
 * labelledStories(parseLabels('ID,User story,atomic\nA1,"As a driver, …",atomic\n', 'l.csv'));
 * // [{ kind: 'document', id: 'A1', documentType: 'user_story', content: { description: 'As a driver, …' } }]
 */
export function labelledStories(labels: LabelFile): Artefact[] {
  return labels.rows.map((row, index) => {
    if (row.story === undefined)
      throw new InvalidInputError(labels.what, [
        'has no story column to score: add a "story", "user story" or "text" column',
      ]);
    if (row.story === '')
      throw new InvalidInputError(labels.what, [`line ${row.line}: the story cell is empty`]);
    return {
      kind: 'document',
      id: row.id ?? `row-${index + 1}`,
      documentType: 'user_story',
      content: { description: row.story },
    };
  });
}

/**
 * The stories two label files share (the same id, or the same story text), one line per
 * row of `second`: a model fitted on one file and measured on the other must never see
 * the same story twice.
 *
 * @example
 * sharedStories(train, test); // ['id "A3US1Ge": train.csv line 2, test.csv line 5']
 */
export function sharedStories(first: LabelFile, second: LabelFile): string[] {
  const lines = { id: new Map<string, number>(), story: new Map<string, number>() };
  for (const row of first.rows)
    for (const key of ['id', 'story'] as const) if (row[key]) lines[key].set(row[key], row.line);
  return second.rows.flatMap((row) => {
    const key = (['id', 'story'] as const).find((each) => row[each] && lines[each].has(row[each]));
    if (key === undefined) return [];
    const value = row[key] as string;
    return [
      `${key} "${value}": ${first.what} line ${lines[key].get(value)}, ${second.what} line ${row.line}`,
    ];
  });
}

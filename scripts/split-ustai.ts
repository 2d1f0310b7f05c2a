/**
 * `npx tsx scripts/split-ustai.ts`: splits the UStAI labelled stories into the train and
 * test files `ralph eval calibrate` reads (test/fixtures/stories/ustai/SPLIT.md says why so).
 * The split is by abstract: the 30 stories written from one paper share its topic and its
 * words, so a paper's stories are all on one side. Test = the abstracts whose number is
 * divisible by 3 (A3, A6, …, A42), train = the others, less any story whose text is word for
 * word one of the test stories (two papers' stories can coincide: A25US5Ge is A27US4Ge):
 * calibration never measures on a story it was fitted on. Each file is the header and its rows
 * exactly as the original writes them, in the original order: running this again writes
 * the same bytes.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { parseCsv, type CsvFile, type CsvRecord } from '../lambdas/core/calibration/csv.js';
import { REPO_ROOT } from '../lib/paths.js';

const FOLDER = join(REPO_ROOT, 'test/fixtures/stories/ustai');
const SOURCE = 'UStAI-annotated_updated.csv';

/** The abstract's number of a row (`A12` → 12); a row without one stops the split. */
function abstractNumber(record: CsvRecord, column: number): number {
  const match = /^A(\d+)$/.exec(record.fields[column] ?? '');
  if (!match) throw new Error(`${SOURCE} line ${record.line}: no abstract (A1…A42) in its row`);
  return Number(match[1]);
}

/** The header and `records`, each as written, each ended by the file's line break. */
function subset(csv: CsvFile, records: readonly CsvRecord[]): string {
  return [csv.header, ...records].map((record) => `${record.raw}${csv.lineBreak}`).join('');
}

const csv = parseCsv(readFileSync(join(FOLDER, SOURCE), 'utf8'), SOURCE);
const column = csv.header.fields.indexOf('Abstract');
if (column < 0 || !csv.header.fields.includes('User story'))
  throw new Error(`${SOURCE} has no Abstract or no User story column`);
const isTest = (record: CsvRecord) => abstractNumber(record, column) % 3 === 0;
const storyColumn = csv.header.fields.indexOf('User story');
const storyOf = (record: CsvRecord) => (record.fields[storyColumn] ?? '').trim();
const test = csv.records.filter(isTest);
const testStories = new Set(test.map(storyOf));
const dropped = csv.records.filter((record) => !isTest(record) && testStories.has(storyOf(record)));
const sides = {
  'train.csv': csv.records.filter((record) => !isTest(record) && !dropped.includes(record)),
  'test.csv': test,
};
for (const record of dropped)
  console.log(
    `train.csv: left out ${record.fields[0]} (line ${record.line}): its story is in test.csv`,
  );
for (const [name, records] of Object.entries(sides)) {
  writeFileSync(join(FOLDER, name), subset(csv, records));
  const abstracts = new Set(records.map((record) => record.fields[column]));
  console.log(`${name}: ${records.length} stories from ${abstracts.size} abstracts`);
}

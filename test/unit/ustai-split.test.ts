import { readFile } from 'node:fs/promises';
import { describe, expect, it } from 'vitest';
import { parseCsv } from '../../lambdas/core/calibration/csv.js';

const FOLDER = 'test/fixtures/stories/ustai';
const read = async (name: string) => parseCsv(await readFile(`${FOLDER}/${name}`, 'utf8'), name);
const readAll = async () =>
  [
    await read('UStAI-annotated_updated.csv'),
    await read('train.csv'),
    await read('test.csv'),
  ] as const;

/** The committed split (scripts/split-ustai.ts, SPLIT.md): by abstract, disjoint, complete. */
describe('the UStAI train / test split', () => {
  it('puts every abstract on one side, the multiples of 3 in test', async () => {
    // Prepare
    const [original, train, test] = await readAll();
    const abstract = original.header.fields.indexOf('Abstract');
    const abstracts = (csv: typeof original) =>
      new Set(csv.records.map((record) => Number(record.fields[abstract]?.slice(1))));

    // Assess
    expect(train.header.raw).toBe(original.header.raw);
    expect(test.header.raw).toBe(original.header.raw);
    expect([...abstracts(test)].sort((a, b) => a - b)).toEqual(
      Array.from({ length: 14 }, (_, i) => 3 * (i + 1)),
    );
    expect(abstracts(train).size).toBe(28);
    expect([...abstracts(train)].some((n) => n % 3 === 0)).toBe(false);
    expect(test.records).toHaveLength(420);
    expect(train.records).toHaveLength(839);
  });

  it('holds the original rows byte for byte, and each story on one side only', async () => {
    const [original, train, test] = await readAll();
    const rows = new Set(original.records.map((record) => record.raw));
    const split = [...train.records, ...test.records].map((record) => record.raw);
    expect(split.every((raw) => rows.has(raw))).toBe(true);
    const story = original.header.fields.indexOf('User story');
    const testStories = new Set(test.records.map((record) => record.fields[story]?.trim()));
    expect(train.records.filter((record) => testStories.has(record.fields[story]?.trim()))).toEqual(
      [],
    );
  });
});

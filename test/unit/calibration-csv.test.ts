import { describe, expect, it } from 'vitest';
import { parseCsv } from '../../lambdas/core/calibration/csv.js';
import { InvalidInputError } from '../../lambdas/core/errors.js';

const problems = (text: string): string[] => {
  try {
    parseCsv(text, 'labels.csv');
  } catch (error) {
    expect(error).toBeInstanceOf(InvalidInputError);
    return [...(error as InvalidInputError).issues];
  }
  throw new Error('parsed');
};

describe('Function: parseCsv', () => {
  it('reads quoted commas, doubled quotes and line breaks inside quotes', () => {
    // Act
    const csv = parseCsv(
      'id,story\r\nA1,"As a driver, I want ""safe"" cars"\r\nA2,"line one\nline two"\r\n',
      'labels.csv',
    );

    // Assess
    expect(csv.header.fields).toEqual(['id', 'story']);
    expect(csv.records.map((record) => record.fields)).toEqual([
      ['A1', 'As a driver, I want "safe" cars'],
      ['A2', 'line one\nline two'],
    ]);
    expect(csv.records.map((record) => record.line)).toEqual([2, 3]);
  });

  it('keeps each record exactly as written, and the line break of the file', () => {
    const text = 'a,b\r\n"x, y",z\r\n"multi\nline",""""';
    const csv = parseCsv(text, 'labels.csv');
    expect(csv.lineBreak).toBe('\r\n');
    expect([csv.header.raw, ...csv.records.map((record) => record.raw)].join('\r\n')).toBe(text);
  });

  it('reads LF files, files without a final line break, a byte-order mark and blank lines', () => {
    const csv = parseCsv('\uFEFFid,atomic\n\nA1,atomic\nA2,', 'labels.csv');
    expect(csv.lineBreak).toBe('\n');
    expect(csv.header.fields).toEqual(['id', 'atomic']);
    expect(csv.records.map((record) => record.fields)).toEqual([
      ['A1', 'atomic'],
      ['A2', ''],
    ]);
  });

  it('refuses a quoted field that is never closed, naming the line it opens on', () => {
    expect(problems('id,story\nA1,ok\nA2,"As a user\n')).toEqual([
      'line 3: a quoted field is never closed (a " is missing)',
    ]);
  });

  it('refuses a row with another number of fields than the header', () => {
    expect(problems('id,story,atomic\nA1,s,atomic\nA2,s\n')).toEqual([
      'line 3: 2 fields where the header has 3',
    ]);
  });

  it('refuses stray quotes', () => {
    expect(problems('id,story\nA1,say "hi"\n')).toEqual([
      'line 2: a quote inside an unquoted field (quote the whole field)',
    ]);
    expect(problems('id,story\nA1,"hi" there\n')).toEqual([
      'line 2: text after the closing quote of a field (write "" for a quote)',
    ]);
  });

  it('refuses an empty file', () => {
    expect(problems('')).toEqual(['the file is empty: a header row is expected']);
  });
});

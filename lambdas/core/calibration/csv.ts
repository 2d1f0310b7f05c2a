/**
 * Reading RFC 4180 CSV (comma-separated, `"`-quoted fields with `""` for a quote, CRLF or LF
 * between records, line breaks allowed inside quotes), UTF-8 with or without a byte-order
 * mark. Small on purpose: the label files are the only CSV the project reads, and each
 * record keeps its exact source text so that a subset of a file can be written back byte
 * for byte (scripts/split-ustai.ts).
 */
import { InvalidInputError } from '../errors.js';

export interface CsvRecord {
  readonly fields: readonly string[];
  /** The 1-based line of the file the record starts on (what an error message names). */
  readonly line: number;
  /** The record exactly as written, without its line break. */
  readonly raw: string;
}

export interface CsvFile {
  readonly header: CsvRecord;
  readonly records: readonly CsvRecord[];
  /** The line break after the header (`\r\n` or `\n`): what a subset of the file is written with. */
  readonly lineBreak: string;
}

const BOM = '\uFEFF';

/** The records of `text` and, when a record is malformed, the problem. */
function splitRecords(text: string, issues: string[]): { records: CsvRecord[]; lineBreak: string } {
  const records: CsvRecord[] = [];
  let lineBreak = '\r\n';
  let fields: string[] = [];
  let field = '';
  let start = 0;
  let startLine = 1;
  let line = 1;
  let i = 0;
  const endRecord = (end: number) => {
    fields.push(field);
    records.push({ fields, line: startLine, raw: text.slice(start, end) });
    fields = [];
    field = '';
  };
  while (i < text.length) {
    const char = text[i];
    if (char === '"' && field === '' && (i === start || text[i - 1] === ',')) {
      // A quoted field: up to the quote that is not doubled.
      const open = line;
      i += 1;
      for (;;) {
        if (i >= text.length) {
          issues.push(`line ${open}: a quoted field is never closed (a " is missing)`);
          return { records, lineBreak };
        }
        if (text[i] === '"') {
          if (text[i + 1] === '"') {
            field += '"';
            i += 2;
            continue;
          }
          i += 1;
          break;
        }
        if (text[i] === '\n') line += 1;
        field += text[i];
        i += 1;
      }
      const next = text[i];
      if (next !== undefined && next !== ',' && next !== '\r' && next !== '\n')
        issues.push(`line ${line}: text after the closing quote of a field (write "" for a quote)`);
      continue;
    }
    if (char === ',') {
      fields.push(field);
      field = '';
      i += 1;
    } else if (char === '\r' || char === '\n') {
      const breakLength = char === '\r' && text[i + 1] === '\n' ? 2 : 1;
      if (records.length === 0) lineBreak = text.slice(i, i + breakLength);
      endRecord(i);
      i += breakLength;
      line += 1;
      start = i;
      startLine = line;
    } else {
      if (char === '"')
        issues.push(`line ${line}: a quote inside an unquoted field (quote the whole field)`);
      field += char;
      i += 1;
    }
  }
  // The last record, when the file does not end with a line break.
  if (start < text.length || fields.length > 0) endRecord(text.length);
  return { records, lineBreak };
}

/**
 * Parses a CSV file with a header row; every record must have as many fields as the header.
 * Blank lines (a record of one empty field) are skipped.
 *
 * @example
 * parseCsv('id,story\r\ns1,"As a user, I want…"\r\n', 'labels.csv').records[0].fields;
 * // ['s1', 'As a user, I want…']
 */
export function parseCsv(text: string, what: string): CsvFile {
  const issues: string[] = [];
  const body = text.startsWith(BOM) ? text.slice(BOM.length) : text;
  const { records, lineBreak } = splitRecords(body, issues);
  const filled = records.filter(
    (record) => !(record.fields.length === 1 && record.fields[0] === ''),
  );
  const [header, ...rest] = filled;
  if (header === undefined) issues.push('the file is empty: a header row is expected');
  else
    for (const record of rest)
      if (record.fields.length !== header.fields.length)
        issues.push(
          `line ${record.line}: ${record.fields.length} fields where the header has ${header.fields.length}`,
        );
  // A field with two stray quotes is one problem, said once.
  if (issues.length > 0 || header === undefined)
    throw new InvalidInputError(what, [...new Set(issues)]);
  return { header, records: rest, lineBreak };
}

/**
 * Human QUS labels from a CSV file (docs/labels.md): one row per story, matched by an `id`
 * column or else by the story's text, one column per labelled criterion. Written to read
 * labelled data sets as they are published (UStAI: `atomic` = atomic / conjunctions).
 */
import { parseCsv, type CsvRecord } from './csv.js';
import { InvalidInputError } from '../errors.js';
import { QUS_CRITERIA, type QusCriterion } from '../schemas/qus.js';

/** One criterion's label on one story: no defect, or a defect of a kind (the cell as written). */
export type Label = { readonly defect: false } | { readonly defect: true; readonly kind: string };

export interface LabelRow {
  /** The 1-based line of the file the row starts on. */
  readonly line: number;
  /** The `id` cell, when the file has that column. */
  readonly id?: string;
  /** The story's text (trimmed), when the file has a story column. */
  readonly story?: string;
  /** The criteria labelled on this row; a criterion absent here is not labelled. */
  readonly labels: Readonly<Partial<Record<QusCriterion, Label>>>;
}

export interface LabelFile {
  /** Where the labels came from (a path), for messages. */
  readonly what: string;
  /** How rows are matched to stories: by the `id` column when there is one. */
  readonly matchBy: 'id' | 'story';
  /** The criteria the file has a column for, in QUS order. */
  readonly criteria: readonly QusCriterion[];
  readonly rows: readonly LabelRow[];
  /** Rows whose id repeats an earlier row's, and the id they were given instead. */
  readonly renamed: readonly RenamedId[];
}

export interface RenamedId {
  readonly line: number;
  readonly id: string;
  readonly as: string;
}

/** Headers of the story's text column, normalised. */
const STORY_HEADERS = new Set(['story', 'user-story', 'text']);
/** Cells that say "no defect" besides the criterion's own name. */
const NO_DEFECT = new Set(['ok', 'pass', 'yes']);
const NOT_LABELLED = new Set(['', 'n/a']);

/**
 * A header or a cell as compared: lower case, trimmed, spaces and underscores as hyphens.
 *
 * @example
 * normaliseName(' Conceptually sound'); // 'conceptually-sound'
 */
export function normaliseName(text: string): string {
  return text
    .trim()
    .toLowerCase()
    .replace(/[\s_]+/g, '-');
}

/**
 * What one cell of a criterion's column says.
 *
 * @example
 * readLabel('atomic', 'conjunctions'); // { defect: true, kind: 'conjunctions' }
 * readLabel('unambiguous', 'Unambiguous'); // { defect: false }
 * readLabel('atomic', 'N/A'); // undefined (not labelled)
 */
export function readLabel(criterion: QusCriterion, cell: string): Label | undefined {
  const value = cell.trim();
  if (NOT_LABELLED.has(value.toLowerCase())) return undefined;
  const name = normaliseName(value);
  if (name === criterion || NO_DEFECT.has(name)) return { defect: false };
  return { defect: true, kind: value };
}

interface Columns {
  id?: number;
  story?: number;
  criteria: [QusCriterion, number][];
}

function findColumns(header: readonly string[], what: string): Columns {
  const columns: Columns = { criteria: [] };
  const issues: string[] = [];
  const seen = new Map<string, number>();
  header.forEach((cell, index) => {
    const name = normaliseName(cell);
    const role =
      name === 'id'
        ? 'id'
        : STORY_HEADERS.has(name)
          ? 'story'
          : (QUS_CRITERIA as readonly string[]).includes(name)
            ? name
            : undefined;
    if (role === undefined) return;
    const first = seen.get(role);
    if (first !== undefined) {
      issues.push(
        `columns ${first + 1} and ${index + 1} are both "${role}" (headers "${header[first]}" and "${cell}")`,
      );
      return;
    }
    seen.set(role, index);
    if (role === 'id') columns.id = index;
    else if (role === 'story') columns.story = index;
    else columns.criteria.push([role as QusCriterion, index]);
  });
  if (columns.id === undefined && columns.story === undefined)
    issues.push(
      `no column names the stories: add an "id" column or a story column ("story", "user story" or "text"); the header is: ${header.join(', ')}`,
    );
  if (issues.length > 0) throw new InvalidInputError(what, issues);
  columns.criteria.sort((a, b) => QUS_CRITERIA.indexOf(a[0]) - QUS_CRITERIA.indexOf(b[0]));
  return columns;
}

function readRow(record: CsvRecord, columns: Columns): LabelRow {
  const cell = (index: number) => record.fields[index] as string;
  const labels: Partial<Record<QusCriterion, Label>> = {};
  for (const [criterion, index] of columns.criteria) {
    const label = readLabel(criterion, cell(index));
    if (label) labels[criterion] = label;
  }
  return {
    line: record.line,
    ...(columns.id === undefined ? {} : { id: cell(columns.id).trim() }),
    ...(columns.story === undefined ? {} : { story: cell(columns.story).trim() }),
    labels,
  };
}

/**
 * Ids must tell rows apart. A published file may repeat one by mistake (UStAI has two);
 * its later rows are then named by their occurrence (`A9US9Ll#2`), the same way whether the
 * file is read as labels or as the stories to score, and the renaming is reported.
 */
function uniqueIds(rows: readonly LabelRow[]): { rows: LabelRow[]; renamed: RenamedId[] } {
  const seen = new Map<string, number>();
  const renamed: RenamedId[] = [];
  const unique = rows.map((row) => {
    if (row.id === undefined || row.id === '') return row;
    const count = (seen.get(row.id) ?? 0) + 1;
    seen.set(row.id, count);
    if (count === 1) return row;
    const as = `${row.id}#${count}`;
    renamed.push({ line: row.line, id: row.id, as });
    return { ...row, id: as };
  });
  return { rows: unique, renamed };
}

/** Two rows with the same key cannot both be matched: the file must say which is meant. */
function checkKeys(rows: readonly LabelRow[], matchBy: LabelFile['matchBy'], what: string): void {
  const issues: string[] = [];
  const first = new Map<string, number>();
  for (const row of rows) {
    const key = row[matchBy] as string;
    if (key === '') {
      issues.push(`line ${row.line}: the ${matchBy} cell is empty`);
      continue;
    }
    const earlier = first.get(key);
    if (earlier !== undefined)
      issues.push(
        `line ${row.line}: the same ${matchBy} as line ${earlier} ("${key}"); add an "id" column to tell them apart`,
      );
    else first.set(key, row.line);
  }
  if (issues.length > 0) throw new InvalidInputError(what, issues);
}

/**
 * Reads a label file. Refused (InvalidInputError, every problem with its line): a malformed
 * CSV, no id or story column, two columns for one role, an empty key, a repeated story text
 * (without ids). A repeated id is renamed (see `uniqueIds`).
 *
 * @example
 * const labels = parseLabels('ID,User story,atomic\nA1,"As a driver, …",conjunctions\n', 'l.csv');
 * labels.rows[0].labels.atomic; // { defect: true, kind: 'conjunctions' }
 */
export function parseLabels(text: string, what: string): LabelFile {
  const csv = parseCsv(text, what);
  const columns = findColumns(csv.header.fields, what);
  const matchBy = columns.id === undefined ? 'story' : 'id';
  const { rows, renamed } = uniqueIds(csv.records.map((record) => readRow(record, columns)));
  checkKeys(rows, matchBy, what);
  const criteria = columns.criteria.map(([criterion]) => criterion);
  return { what, matchBy, criteria, rows, renamed };
}

/**
 * Refuses a label file that labels no criterion: it could measure nothing.
 *
 * @example
 * requireCriteria(parseLabels('id,story\ns1,As a user…\n', 'l.csv')); // throws
 */
export function requireCriteria(labels: LabelFile): LabelFile {
  if (labels.criteria.length === 0)
    throw new InvalidInputError(labels.what, [
      `no column names a QUS criterion: label columns are named ${QUS_CRITERIA.join(', ')} (case and spaces or underscores for hyphens do not matter)`,
    ]);
  return labels;
}

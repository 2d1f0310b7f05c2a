/**
 * What a tool family's reader gives back: one shape for every family (test summaries,
 * diagnostic counts, failures located in the output), so that the dispatcher
 * (`read-output.ts`) can sum, merge and rank them without knowing any tool. Each family
 * reads only what its tools really print; what it does not recognise it leaves out.
 */
import type { DiagnosticTool, TestFramework } from '../schemas/gate-counts.js';
import type { OutputLines } from './lines.js';

/** One test summary a runner printed; a count the summary does not tell is absent. */
export interface TestSummary {
  framework: TestFramework;
  passed?: number;
  failed?: number;
  skipped?: number;
  total?: number;
}

/** Errors and warnings of a diagnostic tool (compiler or linter). */
export interface Diagnostics {
  tool: DiagnosticTool;
  errors: number;
  warnings: number;
}

/** A compiler error: where it is, the compiler's code and message, and its line. */
export interface CompileFailure {
  kind: 'compile';
  /** The index of the line it was read from, in the output's every-line view. */
  at: number;
  file: string | null;
  line: number | null;
  column: number | null;
  /** The compiler's code: `TS2322`, `E0308`, `SyntaxError`. */
  code: string | null;
  message: string;
  /** The line, trimmed. */
  evidence: string;
}

/** A failing test: its name and file, as far as the line (or those around it) tell. */
export interface TestFailureLine {
  kind: 'test';
  at: number;
  name: string | null;
  file: string | null;
  evidence: string;
}

export type ToolFailure = CompileFailure | TestFailureLine;

export interface FamilyReading {
  /** Every summary, in the order printed. */
  tests: TestSummary[];
  diagnostics?: Diagnostics;
  /** Compiler errors, then failing tests, each kind in line order and at most once per line. */
  failures: ToolFailure[];
}

export interface ToolFamily {
  /** Names the family in tests and messages. */
  readonly name: string;
  read(output: OutputLines): FamilyReading;
  /**
   * Lines in which the tool reports an error, matched on the raw line: what transcript
   * analysis counts as an error seen (`error-lines.ts`).
   */
  readonly errorLines: readonly RegExp[];
}

/** Reads one line, looking at the lines around it when it must; undefined: not its line. */
export type LineReader<T> = (lines: readonly string[], index: number) => T | undefined;

/**
 * Each line's reading by the first reader that recognises it, in line order, with the
 * line's index as `at`.
 *
 * @example
 * readLines(lines, [tscParenthesised, tscPretty]) // [{ at: 0, file: 'src/a.ts', ... }]
 */
export function readLines<T extends object>(
  lines: readonly string[],
  readers: readonly LineReader<T>[],
): (T & { at: number })[] {
  const found: (T & { at: number })[] = [];
  for (let at = 0; at < lines.length; at += 1) {
    for (const read of readers) {
      const hit = read(lines, at);
      if (hit === undefined) continue;
      found.push({ ...hit, at });
      break;
    }
  }
  return found;
}

/** The line at `index`, trimmed: a failure's evidence. */
export function lineAt(lines: readonly string[], index: number): string {
  return (lines[index] ?? '').trim();
}

/**
 * A compiler error as read from its line: missing parts are null, the message trimmed.
 *
 * @example
 * compileError(lines[i], 'src/a.ts', '12', '5', 'TS2322', "Type 'string' ...")
 */
export function compileError(
  evidence: string | undefined,
  file: string | undefined,
  line: string | undefined,
  column: string | undefined,
  code: string | undefined,
  message: string | undefined,
): Omit<CompileFailure, 'at'> {
  const int = (text: string | undefined): number | null => (text ? Number(text) : null);
  return {
    kind: 'compile',
    file: file ? file.trim() : null,
    line: int(line),
    column: int(column),
    code: code ?? null,
    message: (message ?? '').trim(),
    evidence: (evidence ?? '').trim(),
  };
}

/** `"1 failed, 5 passed"` or `"1 failed | 5 passed"` → { failed: 1, passed: 5 }. */
export function wordCounts(text: string): Map<string, number> {
  const counts = new Map<string, number>();
  for (const match of text.matchAll(/(\d+)\s+([a-z][a-z ]*?)(?=\s*(?:[,|;]|\(|$))/gi)) {
    const word = match[2]!.toLowerCase().trim();
    counts.set(word, (counts.get(word) ?? 0) + Number(match[1]));
  }
  return counts;
}

/** The counts of `words` added up (a word not printed adds 0). */
export const sumOf = (counts: ReadonlyMap<string, number>, ...words: string[]): number =>
  words.reduce((sum, word) => sum + (counts.get(word) ?? 0), 0);

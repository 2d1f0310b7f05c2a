/**
 * The first compiler error in a tool's output, with its location. Understood forms:
 *
 * - tsc: `src/a.ts(12,5): error TS2322: ...` and (`--pretty`) `src/a.ts:12:5 - error TS2322: ...`
 * - rustc / cargo: `error[E0308]: ...` followed by `  --> src/main.rs:12:5`
 * - gcc, clang, swiftc, kotlinc: `src/a.c:12:5: error: ...`
 * - javac: `src/Main.java:12: error: ...`
 * - go build / vet: `./main.go:12:5: undefined: x`
 * - Python and Node syntax errors: a `SyntaxError:` line after its location
 *   (`File "app.py", line 3` or `/src/a.js:3`); without a location it is taken for a
 *   runtime error (`JSON.parse`) and not counted.
 */
import { linesOf } from './text.js';

export interface CompilerError {
  file: string | null;
  line: number | null;
  column: number | null;
  code: string | null;
  message: string;
  errorCount: number;
  evidence: string;
}

interface Found {
  file: string | null;
  line: number | null;
  column: number | null;
  code: string | null;
  message: string;
  evidence: string;
}

type LineReader = (lines: readonly string[], index: number) => Found | null | undefined;

const int = (text: string | undefined): number | null => (text ? Number(text) : null);

const LINE_READERS: readonly LineReader[] = [
  (lines, i) => {
    const m = /^\s*(.+?)\((\d+),(\d+)\): error (TS\d+): (.+)$/.exec(lines[i] ?? '');
    return m && found(lines[i], m[1], m[2], m[3], m[4], m[5]);
  },
  (lines, i) => {
    const m = /^\s*(.+?):(\d+):(\d+) - error (TS\d+): (.+)$/.exec(lines[i] ?? '');
    return m && found(lines[i], m[1], m[2], m[3], m[4], m[5]);
  },
  (lines, i) => {
    const m = /^\s*error TS(\d+): (.+)$/.exec(lines[i] ?? '');
    return m && found(lines[i], undefined, undefined, undefined, `TS${m[1]}`, m[2]);
  },
  readRustc,
  (lines, i) => {
    const m = /^\s*(.+?):(\d+):(\d+): (?:fatal )?error: (.+)$/.exec(lines[i] ?? '');
    return m && found(lines[i], m[1], m[2], m[3], undefined, m[4]);
  },
  (lines, i) => {
    const m = /^\s*(.+?\.java):(\d+): error: (.+)$/.exec(lines[i] ?? '');
    return m && found(lines[i], m[1], m[2], undefined, undefined, m[3]);
  },
  (lines, i) => {
    const m = /^\s*(\S+?\.go):(\d+):(\d+): (?!warning)(.+)$/.exec(lines[i] ?? '');
    return m && found(lines[i], m[1], m[2], m[3], undefined, m[4]);
  },
  readSyntaxError,
];

/**
 * The first compiler error in `output`, or undefined when there is none.
 *
 * @example
 * parseCompilerError("src/a.ts(12,5): error TS2322: Type 'string' is not assignable to type 'number'.")
 * // { file: 'src/a.ts', line: 12, column: 5, code: 'TS2322', errorCount: 1, ... }
 */
export function parseCompilerError(output: string): CompilerError | undefined {
  const lines = linesOf(output);
  let first: Found | undefined;
  let errorCount = 0;
  for (let i = 0; i < lines.length; i++) {
    const hit = LINE_READERS.reduce<Found | null | undefined>(
      (result, read) => result ?? read(lines, i),
      undefined,
    );
    if (!hit) continue;
    errorCount += 1;
    first ??= hit;
  }
  return first && { ...first, errorCount };
}

/** rustc names the error on one line and its location on a `-->` line just below. */
function readRustc(lines: readonly string[], index: number): Found | undefined {
  const m = /^error(?:\[(E\d{4})\])?: (.+)$/.exec(lines[index] ?? '');
  if (!m) return undefined;
  for (const next of lines.slice(index + 1, index + 4)) {
    const at = /^\s*-->\s*(.+?):(\d+):(\d+)\s*$/.exec(next);
    if (at) return found(lines[index], at[1], at[2], at[3], m[1], m[2]);
  }
  // `error: could not compile ...` and other summaries have no location.
  return m[1] ? found(lines[index], undefined, undefined, undefined, m[1], m[2]) : undefined;
}

const SYNTAX = /^\s*(SyntaxError|IndentationError|TabError): (.+)$/;
const PYTHON_AT = /^\s*File "(.+?)", line (\d+)/;
const NODE_AT = /^\s*(\/?[\w./@-]+\.[cm]?[jt]sx?):(\d+)$/;

/** A syntax error counts only with its location a few lines above it. */
function readSyntaxError(lines: readonly string[], index: number): Found | undefined {
  const m = SYNTAX.exec(lines[index] ?? '');
  if (!m) return undefined;
  for (const above of lines.slice(Math.max(0, index - 6), index).reverse()) {
    const at = PYTHON_AT.exec(above) ?? NODE_AT.exec(above);
    if (at) return found(lines[index], at[1], at[2], undefined, m[1], m[2]);
  }
  return undefined;
}

function found(
  evidence: string | undefined,
  file: string | undefined,
  line: string | undefined,
  column: string | undefined,
  code: string | undefined,
  message: string | undefined,
): Found {
  return {
    file: file ? file.trim() : null,
    line: int(line),
    column: int(column),
    code: code ?? null,
    message: (message ?? '').trim(),
    evidence: (evidence ?? '').trim(),
  };
}

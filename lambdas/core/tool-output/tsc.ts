/**
 * tsc, the TypeScript compiler: its `Found N errors` summary (or its error lines) and its
 * errors, in three forms:
 *
 * - `src/a.ts(12,5): error TS2322: ...`
 * - `src/a.ts:12:5 - error TS2322: ...` (`--pretty`, colours stripped)
 * - `error TS5058: ...` (no location: a configuration error)
 */
import {
  compileError,
  readLines,
  type CompileFailure,
  type Diagnostics,
  type LineReader,
  type ToolFamily,
} from './family.js';

type Reader = LineReader<Omit<CompileFailure, 'at'>>;

const READERS: readonly Reader[] = [
  (lines, i) => {
    const m = /^\s*(.+?)\((\d+),(\d+)\): error (TS\d+): (.+)$/.exec(lines[i] ?? '');
    return m ? compileError(lines[i], m[1], m[2], m[3], m[4], m[5]) : undefined;
  },
  (lines, i) => {
    const m = /^\s*(.+?):(\d+):(\d+) - error (TS\d+): (.+)$/.exec(lines[i] ?? '');
    return m ? compileError(lines[i], m[1], m[2], m[3], m[4], m[5]) : undefined;
  },
  (lines, i) => {
    const m = /^\s*error TS(\d+): (.+)$/.exec(lines[i] ?? '');
    return m
      ? compileError(lines[i], undefined, undefined, undefined, `TS${m[1]}`, m[2])
      : undefined;
  },
];

/** `Found 3 errors in 2 files.` when printed, else the `error TS2322:` lines. */
function counts(lines: readonly string[]): Diagnostics | undefined {
  let summary: number | undefined;
  let errorLines = 0;
  for (const line of lines) {
    const found = /^\s*Found (\d+) errors?\b/.exec(line);
    if (found) summary = (summary ?? 0) + Number(found[1]);
    else if (/\berror TS\d+:/.test(line)) errorLines += 1;
  }
  if (summary === undefined && errorLines === 0) return undefined;
  return { tool: 'tsc', errors: summary ?? errorLines, warnings: 0 };
}

export const tsc: ToolFamily = {
  name: 'tsc',
  read: (output) => ({
    tests: [],
    diagnostics: counts(output.terminal),
    failures: readLines(output.all, READERS),
  }),
  errorLines: [/\berror TS\d+:/],
};

/** Commands that run tsc by name (`npx tsc --noEmit`; not `tsc-watch`). */
export const TSC_COMMAND = /(?:^|[\s/;&|])tsc(?:\s|$)/;

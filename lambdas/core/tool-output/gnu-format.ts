/**
 * Compilers that report errors in the GNU format, `src/a.c:12:5: error: ...` (gcc, clang,
 * swiftc, kotlinc; `fatal error` too), and javac's `src/Main.java:12: error: ...`. They
 * print no test or count summary this project reads.
 */
import {
  compileError,
  readLines,
  type CompileFailure,
  type LineReader,
  type ToolFamily,
} from './family.js';

const READERS: readonly LineReader<Omit<CompileFailure, 'at'>>[] = [
  (lines, i) => {
    const m = /^\s*(.+?):(\d+):(\d+): (?:fatal )?error: (.+)$/.exec(lines[i] ?? '');
    return m ? compileError(lines[i], m[1], m[2], m[3], undefined, m[4]) : undefined;
  },
  (lines, i) => {
    const m = /^\s*(.+?\.java):(\d+): error: (.+)$/.exec(lines[i] ?? '');
    return m ? compileError(lines[i], m[1], m[2], undefined, undefined, m[3]) : undefined;
  },
];

export const gnuFormat: ToolFamily = {
  name: 'gnu-format',
  read: (output) => ({ tests: [], failures: readLines(output.all, READERS) }),
  errorLines: [],
};

/**
 * Syntax errors of interpreted languages: Python's `SyntaxError` / `IndentationError` /
 * `TabError` under its `File "app.py", line 3`, Node's `SyntaxError` under its
 * `/src/a.js:3` header. Only with its location a few lines above is one a compile-time
 * error; without, it is taken for a runtime error (`JSON.parse`) and not counted.
 */
import { compileError, readLines, type CompileFailure, type ToolFamily } from './family.js';

const SYNTAX = /^\s*(SyntaxError|IndentationError|TabError): (.+)$/;
const PYTHON_AT = /^\s*File "(.+?)", line (\d+)/;
const NODE_AT = /^\s*(\/?[\w./@-]+\.[cm]?[jt]sx?):(\d+)$/;

function syntaxError(
  lines: readonly string[],
  index: number,
): Omit<CompileFailure, 'at'> | undefined {
  const m = SYNTAX.exec(lines[index] ?? '');
  if (!m) return undefined;
  for (const above of lines.slice(Math.max(0, index - 6), index).reverse()) {
    const at = PYTHON_AT.exec(above) ?? NODE_AT.exec(above);
    if (at) return compileError(lines[index], at[1], at[2], undefined, m[1], m[2]);
  }
  return undefined;
}

export const syntaxErrors: ToolFamily = {
  name: 'syntax-errors',
  read: (output) => ({ tests: [], failures: readLines(output.all, [syntaxError]) }),
  errorLines: [],
};

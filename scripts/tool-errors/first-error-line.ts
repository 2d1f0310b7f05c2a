/**
 * The line of a tool's output that states the error, per tool: what a person reads first.
 * `errorSignature` takes the first line that mentions a failure, which for vitest is its
 * per-file summary (`❯ test/a.test.ts (1 test | 1 failed) 9ms`) and for pytest often the
 * source line of the assertion; the fixture queries with this line instead, and keeps the
 * other beside it.
 */
import type { Tool } from './kind.js';

/** Per tool, the forms of an error line, most telling first. */
const ERROR_LINES: Record<Tool, readonly RegExp[]> = {
  tsc: [/error TS\d+:/],
  eslint: [/^\s*\d+:\d+\s+error\s/],
  // AssertionError: ..., TypeError: ..., Error: Test timed out ...
  vitest: [/^(?:[A-Z]\w*)?Error: /],
  // E   ModuleNotFoundError: ..., E   Failed: DID NOT RAISE; else E   assert 6 == 7 or
  // E   fixture 'x' not found. A collection error quotes the source with E first too.
  pytest: [/^E\s+(?:[A-Z]\w*(?:Error|Exception): |Failed: )/, /^E\s+(?:assert |fixture )/],
};

export function firstErrorLine(tool: Tool, output: string): string | undefined {
  const lines = output.split('\n');
  for (const form of ERROR_LINES[tool]) {
    const line = lines.find((candidate) => form.test(candidate));
    if (line !== undefined) return line;
  }
  return undefined;
}

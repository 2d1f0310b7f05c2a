/**
 * The go tool: `go test` summaries (`-json` events, `-v` lines, or plain output that names
 * only failures), its failing tests (`--- FAIL: TestAdd` with `add_test.go:10:` below),
 * and the errors of `go build` / `go vet` (`./main.go:12:5: undefined: x`).
 */
import {
  compileError,
  lineAt,
  readLines,
  type CompileFailure,
  type TestFailureLine,
  type TestSummary,
  type ToolFamily,
} from './family.js';

type Tally = { pass: number; fail: number; skip: number; seen: boolean };

function goJsonEvent(line: string): { action: string; test: string } | undefined {
  try {
    const value: unknown = JSON.parse(line);
    if (value === null || typeof value !== 'object') return undefined;
    const { Action, Test } = value as { Action?: unknown; Test?: unknown };
    return typeof Action === 'string' && typeof Test === 'string'
      ? { action: Action, test: Test }
      : undefined;
  } catch {
    return undefined;
  }
}

/**
 * `-json` events or `-v` lines give every top-level test (subtests are left out, their
 * parent stands for them); plain output names only failures (`--- FAIL:`), so then only
 * `failed` is known.
 */
function testSummaries(lines: readonly string[]): TestSummary[] {
  const json: Tally = { pass: 0, fail: 0, skip: 0, seen: false };
  const verbose: Tally = { pass: 0, fail: 0, skip: 0, seen: false };
  let packageLines = false;
  for (const line of lines) {
    if (line.startsWith('{') && line.includes('"Action"')) {
      const event = goJsonEvent(line);
      if (event && event.test !== '' && !event.test.includes('/')) {
        json.seen = true;
        if (event.action === 'pass' || event.action === 'fail' || event.action === 'skip')
          json[event.action] += 1;
      }
      continue;
    }
    const result = /^--- (PASS|FAIL|SKIP): \S/.exec(line);
    if (result) {
      const key = result[1]!.toLowerCase() as 'pass' | 'fail' | 'skip';
      verbose[key] += 1;
      if (key !== 'fail') verbose.seen = true;
    } else if (/^=== RUN\s/.test(line)) verbose.seen = true;
    else if (
      /^(?:ok|FAIL)\s+\S+\s+(?:\(cached\)|\d+(?:\.\d+)?s)/.test(line) ||
      /^\?\s+\S+\s+\[no test files\]/.test(line)
    )
      packageLines = true;
  }
  const full = json.seen ? json : verbose.seen ? verbose : undefined;
  if (full)
    return [
      {
        framework: 'go',
        passed: full.pass,
        failed: full.fail,
        skipped: full.skip,
        total: full.pass + full.fail + full.skip,
      },
    ];
  if (packageLines || verbose.fail > 0) return [{ framework: 'go', failed: verbose.fail }];
  return [];
}

/** `./main.go:12:5: undefined: x` (a vet `warning` is not an error). */
function buildError(
  lines: readonly string[],
  index: number,
): Omit<CompileFailure, 'at'> | undefined {
  const m = /^\s*(\S+?\.go):(\d+):(\d+): (?!warning)(.+)$/.exec(lines[index] ?? '');
  return m ? compileError(lines[index], m[1], m[2], m[3], undefined, m[4]) : undefined;
}

/** `--- FAIL: TestAdd (0.00s)`, with the test file from the `add_test.go:10:` lines below. */
function failingTest(
  lines: readonly string[],
  index: number,
): Omit<TestFailureLine, 'at'> | undefined {
  const m = /^\s*--- FAIL: (\S+)/.exec(lines[index] ?? '');
  if (!m) return undefined;
  const at = lines
    .slice(index + 1, index + 6)
    .map((next) => /^\s+(\S+_test\.go):\d+:/.exec(next)?.[1])
    .find(Boolean);
  return { kind: 'test', name: m[1] ?? null, file: at ?? null, evidence: lineAt(lines, index) };
}

export const go: ToolFamily = {
  name: 'go',
  read: (output) => ({
    tests: testSummaries(output.terminal),
    failures: [...readLines(output.all, [buildError]), ...readLines(output.all, [failingTest])],
  }),
  errorLines: [/^\s*--- FAIL: \S/],
};

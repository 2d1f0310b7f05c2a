/**
 * pytest: its session summary (`===== 3 passed, 1 failed in 0.12s =====`, with or without
 * `-q`) and the failing tests of its short summary (`FAILED tests/test_x.py::test_y - ...`).
 */
import {
  lineAt,
  readLines,
  sumOf,
  wordCounts,
  type TestFailureLine,
  type TestSummary,
  type ToolFamily,
} from './family.js';

const WORDS =
  'passed|failed|errors?|skipped|xfailed|xpassed|deselected|warnings?|rerun|subtests passed|subtests failed';
const SUMMARY_LINE = new RegExp(
  `^[=\\s]*((?:\\d+ (?:${WORDS})(?:, )?)+|no tests ran) in \\d+(?:\\.\\d+)?s(?: \\([^)]*\\))?[=\\s]*$`,
);

function testSummaries(lines: readonly string[]): TestSummary[] {
  const summaries: TestSummary[] = [];
  for (const line of lines) {
    const match = SUMMARY_LINE.exec(line);
    if (!match) continue;
    const counts = wordCounts(match[1]!);
    const passed = sumOf(counts, 'passed', 'xpassed');
    const failed = sumOf(counts, 'failed', 'error', 'errors');
    const skipped = sumOf(counts, 'skipped', 'xfailed');
    summaries.push({
      framework: 'pytest',
      passed,
      failed,
      skipped,
      total: passed + failed + skipped,
    });
  }
  return summaries;
}

/** `FAILED tests/test_cart.py::TestCart::test_empty - KeyError: 'items'` */
function failingTest(
  lines: readonly string[],
  index: number,
): Omit<TestFailureLine, 'at'> | undefined {
  const m = /^\s*FAILED\s+(\S+?)::(\S+)(?:\s+-\s+.*)?$/.exec(lines[index] ?? '');
  return m
    ? { kind: 'test', file: m[1] ?? null, name: m[2] ?? null, evidence: lineAt(lines, index) }
    : undefined;
}

export const pytest: ToolFamily = {
  name: 'pytest',
  read: (output) => ({
    tests: testSummaries(output.terminal),
    failures: readLines(output.all, [failingTest]),
  }),
  // FAILED lines, and the assertion detail under a failure (`E       assert 3 == 4`).
  errorLines: [/^\s*FAILED\s+\S/, /^E\s{2,}\S/],
};

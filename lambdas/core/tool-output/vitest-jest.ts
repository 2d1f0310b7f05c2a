/**
 * vitest and jest, which print alike: their `Tests` summaries, and their failing tests:
 *
 * - vitest: ` FAIL  test/a.test.ts > suite > name` and ` × suite > name 3ms` (under
 *   ` ❯ test/a.test.ts (3 tests | 1 failed)`)
 * - jest: `FAIL src/a.test.js` with `● suite › name` and `✕ name (5 ms)`
 * - node:test's spec reporter marks a failure `✖ name (1.2ms)` the same way.
 */
import {
  lineAt,
  readLines,
  sumOf,
  wordCounts,
  type LineReader,
  type TestFailureLine,
  type TestSummary,
  type ToolFamily,
} from './family.js';

/** `      Tests  2 failed | 10 passed (12)` (vitest; `Test Files` is not tests). */
function vitestSummaries(lines: readonly string[]): TestSummary[] {
  const summaries: TestSummary[] = [];
  for (const line of lines) {
    const match = /^\s*Tests\s{2,}(\d.*?)\s*\((\d+)\)\s*$/.exec(line);
    if (!match) continue;
    const counts = wordCounts(match[1]!);
    summaries.push({
      framework: 'vitest',
      passed: sumOf(counts, 'passed'),
      failed: sumOf(counts, 'failed'),
      skipped: sumOf(counts, 'skipped', 'todo'),
      total: Number(match[2]),
    });
  }
  return summaries;
}

/** `Tests:       1 failed, 5 passed, 6 total` (jest). */
function jestSummaries(lines: readonly string[]): TestSummary[] {
  const summaries: TestSummary[] = [];
  for (const line of lines) {
    const match = /^\s*Tests:\s+(.*?)(\d+) total\s*$/.exec(line);
    if (!match) continue;
    const counts = wordCounts(match[1]!);
    summaries.push({
      framework: 'jest',
      passed: sumOf(counts, 'passed'),
      failed: sumOf(counts, 'failed'),
      skipped: sumOf(counts, 'skipped', 'todo', 'pending'),
      total: Number(match[2]),
    });
  }
  return summaries;
}

const TIMING = /\s+\(?\d+(?:\.\d+)?\s?m?s\)?$/;
const withoutTiming = (name: string): string => name.replace(TIMING, '').trim();

/** vitest lists a file's failures under ` ❯ test/a.test.ts (3 tests | 1 failed)`. */
function vitestFile(lines: readonly string[], index: number): string | null {
  for (let i = index - 1; i >= 0 && i >= index - 50; i--) {
    const m = /^\s*❯\s+(\S+\.\w+)\s+\(/.exec(lines[i] ?? '');
    if (m?.[1]) return m[1];
  }
  return null;
}

type Reader = LineReader<Omit<TestFailureLine, 'at'>>;

const READERS: readonly Reader[] = [
  (lines, i) => {
    // vitest's FAIL names file and test; jest's names the file only; both may add "(5.1 s)" or "[ file ]".
    const m = /^\s*FAIL\s+(\S+)(?:\s+>\s+(.+?))?(?:\s+\[.*\]|\s+\(.*\))?\s*$/.exec(lines[i] ?? '');
    return m
      ? {
          kind: 'test',
          file: m[1] ?? null,
          name: m[2] ? withoutTiming(m[2]) : null,
          evidence: lineAt(lines, i),
        }
      : undefined;
  },
  (lines, i) => {
    const m = /^\s*●\s+(.+)$/.exec(lines[i] ?? '');
    if (!m?.[1] || /^Test suite failed to run/.test(m[1])) return undefined;
    return { kind: 'test', name: withoutTiming(m[1]), file: null, evidence: lineAt(lines, i) };
  },
  (lines, i) => {
    const m = /^\s*[×✕✖]\s+(.+)$/.exec(lines[i] ?? '');
    if (!m?.[1]) return undefined;
    return {
      kind: 'test',
      name: withoutTiming(m[1]),
      file: vitestFile(lines, i),
      evidence: lineAt(lines, i),
    };
  },
];

export const vitestJest: ToolFamily = {
  name: 'vitest-jest',
  read: (output) => ({
    tests: [...vitestSummaries(output.terminal), ...jestSummaries(output.terminal)],
    failures: readLines(output.all, READERS),
  }),
  errorLines: [/^\s*FAIL\s+\S/],
};

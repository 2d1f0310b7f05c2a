/**
 * node:test (`node --test`, `tsx --test`) with its TAP or spec reporter, and tape: their
 * summaries (`# pass 3`, `ℹ pass 3`) and TAP's failing tests (`not ok 2 - name`, with the
 * `location:` of its YAML block). The spec reporter's `✖ name` lines are read with
 * vitest's and jest's result marks (`vitest-jest.ts`), which they share.
 */
import {
  lineAt,
  readLines,
  sumOf,
  type TestFailureLine,
  type TestSummary,
  type ToolFamily,
} from './family.js';

function testSummaries(lines: readonly string[]): TestSummary[] {
  const summaries: TestSummary[] = [];
  let current: Map<string, number> | undefined;
  const close = () => {
    // tape leaves out `# fail` when nothing failed; node:test always prints it.
    if (current?.has('pass') && (current.has('fail') || current.has('tests')))
      summaries.push({
        framework: 'node-test',
        passed: sumOf(current, 'pass'),
        failed: sumOf(current, 'fail', 'cancelled'),
        skipped: sumOf(current, 'skipped', 'todo'),
        total:
          current.get('tests') ?? sumOf(current, 'pass', 'fail', 'cancelled', 'skipped', 'todo'),
      });
    current = undefined;
  };
  for (const line of lines) {
    const match = /^\s*(?:#|ℹ)\s+(tests|suites|pass|fail|cancelled|skipped|todo)\s+(\d+)\s*$/.exec(
      line,
    );
    if (!match) continue;
    const key = match[1]!;
    // Each run's summary starts with `tests` (node) or `pass` (tape, which has no `tests`).
    if (key === 'tests' || (key === 'pass' && current?.has('pass'))) close();
    current ??= new Map();
    current.set(key, Number(match[2]));
  }
  close();
  return summaries;
}

/** node:test's TAP puts the failing test's `location:` in the YAML block below it. */
function tapLocation(lines: readonly string[], index: number): string | null {
  for (const next of lines.slice(index + 1, index + 30)) {
    if (/^\s*(not )?ok \d+/.test(next)) return null;
    const m = /^\s*location:\s*'(.+?):\d+:\d+'/.exec(next);
    if (m?.[1]) return m[1];
  }
  return null;
}

/** `not ok 2 - computes the total # a directive` */
function failingTest(
  lines: readonly string[],
  index: number,
): Omit<TestFailureLine, 'at'> | undefined {
  const m = /^\s*not ok \d+ - (.+?)(?:\s+#.*)?$/.exec(lines[index] ?? '');
  if (!m) return undefined;
  return {
    kind: 'test',
    name: m[1] ?? null,
    file: tapLocation(lines, index),
    evidence: lineAt(lines, index),
  };
}

export const nodeTest: ToolFamily = {
  name: 'node-test',
  read: (output) => ({
    tests: testSummaries(output.terminal),
    failures: readLines(output.all, [failingTest]),
  }),
  errorLines: [],
};

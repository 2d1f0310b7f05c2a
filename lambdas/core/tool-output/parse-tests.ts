/**
 * The failing tests in a test runner's output. Understood forms:
 *
 * - vitest: ` FAIL  test/a.test.ts > suite > name` and ` × suite > name 3ms` (under ` ❯ test/a.test.ts`)
 * - jest: `FAIL src/a.test.js` with `● suite › name` and `✕ name (5 ms)`
 * - node:test: TAP `not ok 2 - name` (with `location: '/x/a.test.js:5:3'`) and spec `✖ name (1.2ms)`
 * - pytest: `FAILED tests/test_x.py::test_y - AssertionError`
 * - go test: `--- FAIL: TestAdd (0.00s)` with `    add_test.go:10: ...`
 * - cargo test: `test tests::adds ... FAILED`
 *
 * The reported test is the first one named together with its file, else the first named,
 * with the first test file the output mentions.
 */
import { linesOf } from './text.js';

export interface TestFailure {
  testName: string | null;
  file: string | null;
  failingTests: string[];
  evidence: string;
}

interface Candidate {
  name: string | null;
  file: string | null;
  evidence: string;
}

type LineReader = (lines: readonly string[], index: number) => Candidate | undefined;

const TIMING = /\s+\(?\d+(?:\.\d+)?\s?m?s\)?$/;
const clean = (name: string): string => name.replace(TIMING, '').trim();

const READERS: readonly LineReader[] = [
  (lines, i) => {
    // vitest's FAIL names file and test; jest's names the file only; both may add "(5.1 s)" or "[ file ]".
    const m = /^\s*FAIL\s+(\S+)(?:\s+>\s+(.+?))?(?:\s+\[.*\]|\s+\(.*\))?\s*$/.exec(lines[i] ?? '');
    return m
      ? { file: m[1] ?? null, name: m[2] ? clean(m[2]) : null, evidence: line(lines, i) }
      : undefined;
  },
  (lines, i) => {
    const m = /^\s*FAILED\s+(\S+?)::(\S+)(?:\s+-\s+.*)?$/.exec(lines[i] ?? '');
    return m ? { file: m[1] ?? null, name: m[2] ?? null, evidence: line(lines, i) } : undefined;
  },
  (lines, i) => {
    const m = /^\s*not ok \d+ - (.+?)(?:\s+#.*)?$/.exec(lines[i] ?? '');
    if (!m) return undefined;
    return { name: m[1] ?? null, file: tapLocation(lines, i), evidence: line(lines, i) };
  },
  (lines, i) => {
    const m = /^\s*--- FAIL: (\S+)/.exec(lines[i] ?? '');
    if (!m) return undefined;
    const at = lines
      .slice(i + 1, i + 6)
      .map((next) => /^\s+(\S+_test\.go):\d+:/.exec(next)?.[1])
      .find(Boolean);
    return { name: m[1] ?? null, file: at ?? null, evidence: line(lines, i) };
  },
  (lines, i) => {
    const m = /^\s*test (\S+) \.\.\. FAILED\s*$/.exec(lines[i] ?? '');
    return m ? { name: m[1] ?? null, file: null, evidence: line(lines, i) } : undefined;
  },
  (lines, i) => {
    const m = /^\s*●\s+(.+)$/.exec(lines[i] ?? '');
    if (!m?.[1] || /^Test suite failed to run/.test(m[1])) return undefined;
    return { name: clean(m[1]), file: null, evidence: line(lines, i) };
  },
  (lines, i) => {
    const m = /^\s*[×✕✖]\s+(.+)$/.exec(lines[i] ?? '');
    if (!m?.[1]) return undefined;
    return { name: clean(m[1]), file: vitestFile(lines, i), evidence: line(lines, i) };
  },
];

/**
 * The failing tests in `output`, or undefined when it names none.
 *
 * @example
 * parseTestFailure('FAILED tests/test_cart.py::test_total - assert 3 == 4')
 * // { testName: 'test_total', file: 'tests/test_cart.py', failingTests: ['test_total'], ... }
 */
export function parseTestFailure(output: string): TestFailure | undefined {
  const lines = linesOf(output);
  const candidates: Candidate[] = [];
  for (let i = 0; i < lines.length; i++) {
    const hit = READERS.reduce<Candidate | undefined>((r, read) => r ?? read(lines, i), undefined);
    if (hit) candidates.push(hit);
  }
  if (candidates.length === 0) return undefined;
  const best =
    candidates.find((c) => c.name && c.file) ?? candidates.find((c) => c.name) ?? candidates[0];
  const names = [...new Set(candidates.flatMap((c) => (c.name ? [c.name] : [])))];
  return {
    testName: best?.name ?? null,
    file: best?.file ?? candidates.find((c) => c.file)?.file ?? null,
    failingTests: names,
    evidence: best?.evidence ?? '',
  };
}

function line(lines: readonly string[], index: number): string {
  return (lines[index] ?? '').trim();
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

/** vitest lists a file's failures under ` ❯ test/a.test.ts (3 tests | 1 failed)`. */
function vitestFile(lines: readonly string[], index: number): string | null {
  for (let i = index - 1; i >= 0 && i >= index - 50; i--) {
    const m = /^\s*❯\s+(\S+\.\w+)\s+\(/.exec(lines[i] ?? '');
    if (m?.[1]) return m[1];
  }
  return null;
}

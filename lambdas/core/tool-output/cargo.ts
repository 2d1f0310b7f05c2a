/**
 * cargo and rustc: `cargo test` summaries and failing tests, the warnings and errors of
 * `cargo clippy` / `cargo build`, and rustc's errors (`error[E0308]: ...` with its
 * `--> src/main.rs:12:5` line below).
 */
import {
  compileError,
  lineAt,
  readLines,
  type CompileFailure,
  type Diagnostics,
  type TestFailureLine,
  type TestSummary,
  type ToolFamily,
} from './family.js';

/** `test result: ok. 5 passed; 0 failed; 1 ignored; ...`, one per test binary. */
function testSummaries(lines: readonly string[]): TestSummary[] {
  const summaries: TestSummary[] = [];
  for (const line of lines) {
    const match =
      /^\s*test result: (?:ok|FAILED)\. (\d+) passed; (\d+) failed; (\d+) ignored;/.exec(line);
    if (!match) continue;
    const [passed, failed, skipped] = [match[1], match[2], match[3]].map(Number) as [
      number,
      number,
      number,
    ];
    summaries.push({
      framework: 'cargo',
      passed,
      failed,
      skipped,
      total: passed + failed + skipped,
    });
  }
  return summaries;
}

const RUST_CONTEXT = [
  /^\s*(?:Checking|Compiling)\s+\S+ v\d+\.\d+/,
  /^\s*Finished\s.*target\(s\) in /,
  /^\s*--> \S+\.rs:\d+:\d+/,
  /^(?:warning|error): .*(?:generated \d+ warnings?|could not compile)/,
];

/**
 * cargo clippy / build: the `generated N warnings (M duplicates)` and `could not compile
 * ... due to N previous errors; M warnings emitted` summaries when printed, else the
 * `warning:` / `error:` lines. Cargo prints both summaries for a target that failed, so a
 * target's `emitted` count is used only when it has no `generated` line. Recognised only
 * with cargo's own lines around it, so another tool's `warning:` is not taken for rust's;
 * clean cargo output is 0 and 0.
 */
function diagnostics(lines: readonly string[]): Diagnostics | undefined {
  if (!lines.some((line) => RUST_CONTEXT.some((pattern) => pattern.test(line)))) return undefined;
  const generatedByTarget = new Map<string, number>();
  const emittedByTarget = new Map<string, number>();
  let summaryErrors: number | undefined;
  let warningLines = 0;
  let errorLines = 0;
  lines.forEach((line, index) => {
    // `demo` (lib test): which crate target a summary is about.
    const target = /`[^`]+` \([^)]*\)/.exec(line)?.[0] ?? `line ${index}`;
    const generated = /generated (\d+) warnings?(?: \((\d+) duplicates?\))?/.exec(line);
    const emitted = /(\d+) warnings? emitted/.exec(line);
    const previous = /due to (\d+) previous errors?/.exec(line);
    if (generated) generatedByTarget.set(target, Number(generated[1]) - Number(generated[2] ?? 0));
    if (emitted) emittedByTarget.set(target, Number(emitted[1]));
    if (previous) summaryErrors = (summaryErrors ?? 0) + Number(previous[1]);
    if (generated || emitted || previous) return;
    if (/^warning: /.test(line) && !/^warning: build failed/.test(line)) warningLines += 1;
    else if (
      /^error(?:\[E\d+\])?: /.test(line) &&
      !/^error: (?:aborting due to|test failed|\d+ targets? failed|failed to compile)/.test(line)
    )
      errorLines += 1;
  });
  for (const [target, count] of emittedByTarget)
    if (!generatedByTarget.has(target)) generatedByTarget.set(target, count);
  const summaryWarnings =
    generatedByTarget.size === 0
      ? undefined
      : [...generatedByTarget.values()].reduce((sum, count) => sum + count, 0);
  return {
    tool: 'clippy',
    errors: summaryErrors ?? errorLines,
    warnings: summaryWarnings ?? warningLines,
  };
}

/** rustc names the error on one line and its location on a `-->` line just below. */
function rustcError(
  lines: readonly string[],
  index: number,
): Omit<CompileFailure, 'at'> | undefined {
  const m = /^error(?:\[(E\d{4})\])?: (.+)$/.exec(lines[index] ?? '');
  if (!m) return undefined;
  for (const next of lines.slice(index + 1, index + 4)) {
    const at = /^\s*-->\s*(.+?):(\d+):(\d+)\s*$/.exec(next);
    if (at) return compileError(lines[index], at[1], at[2], at[3], m[1], m[2]);
  }
  // `error: could not compile ...` and other summaries have no location.
  return m[1] ? compileError(lines[index], undefined, undefined, undefined, m[1], m[2]) : undefined;
}

/** `test tests::adds ... FAILED` */
function failingTest(
  lines: readonly string[],
  index: number,
): Omit<TestFailureLine, 'at'> | undefined {
  const m = /^\s*test (\S+) \.\.\. FAILED\s*$/.exec(lines[index] ?? '');
  return m
    ? { kind: 'test', name: m[1] ?? null, file: null, evidence: lineAt(lines, index) }
    : undefined;
}

export const cargo: ToolFamily = {
  name: 'cargo',
  read: (output) => ({
    tests: testSummaries(output.terminal),
    diagnostics: diagnostics(output.terminal),
    failures: [...readLines(output.all, [rustcError]), ...readLines(output.all, [failingTest])],
  }),
  errorLines: [/panicked at /],
};

/** Commands that run clippy (`cargo clippy --all-targets`). */
export const CLIPPY_COMMAND = /\bcargo\s+clippy\b/;

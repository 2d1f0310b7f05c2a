/**
 * Test and diagnostic counts read from a quality gate's output: the quality-level
 * dimensions of semantic progress tracking (design §3.1: tests added, tests passing delta,
 * warnings delta). Only summaries a tool really prints are read; output that no parser
 * recognises gives `undefined`, never a made-up 0.
 */
import type {
  TestFramework,
  TestCounts,
  DiagnosticTool,
  DiagnosticCounts,
  GateOutputCounts,
} from '../schemas/gate-counts.js';
import { DIAGNOSTIC_TOOLS } from '../schemas/gate-counts.js';

export interface DiagnosticParseOptions {
  /**
   * The output is known to come from this tool and the tool exited 0. tsc and eslint print
   * nothing when clean, so then "nothing found" means 0 errors and 0 warnings. Leave it
   * out when the tool failed or is unknown: a crash must not read as clean.
   */
  cleanTool?: DiagnosticTool;
}

type Summary = {
  framework: TestFramework;
  passed?: number;
  failed?: number;
  skipped?: number;
  total?: number;
};
type CountKey = 'passed' | 'failed' | 'skipped' | 'total';
const COUNT_KEYS: readonly CountKey[] = ['passed', 'failed', 'skipped', 'total'];

// eslint-disable-next-line no-control-regex
const ANSI = /\u001b\[[0-9;?]*[ -/]*[@-~]|\u001b\][^\u0007\u001b]*(?:\u0007|\u001b\\)/g;

/**
 * The output's lines as a terminal would show them: colour codes removed, and of a line
 * rewritten with `\r` only its last state.
 */
export function outputLines(output: string): string[] {
  return output
    .replace(ANSI, '')
    .split('\n')
    .map((line) => {
      const trimmed = line.endsWith('\r') ? line.slice(0, -1) : line;
      return trimmed.slice(trimmed.lastIndexOf('\r') + 1);
    });
}

/** `"1 failed, 5 passed"` or `"1 failed | 5 passed"` → { failed: 1, passed: 5 }. */
function wordCounts(text: string): Map<string, number> {
  const counts = new Map<string, number>();
  for (const match of text.matchAll(/(\d+)\s+([a-z][a-z ]*?)(?=\s*(?:[,|;]|\(|$))/gi)) {
    const word = match[2]!.toLowerCase().trim();
    counts.set(word, (counts.get(word) ?? 0) + Number(match[1]));
  }
  return counts;
}

const sumOf = (counts: Map<string, number>, ...words: string[]): number =>
  words.reduce((sum, word) => sum + (counts.get(word) ?? 0), 0);

/** node:test / tsx --test, TAP (`# pass 3`) or spec (`ℹ pass 3`) reporter, and tape. */
function nodeTestSummaries(lines: readonly string[]): Summary[] {
  const summaries: Summary[] = [];
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

/** `      Tests  2 failed | 10 passed (12)` (vitest; `Test Files` is not tests). */
function vitestSummaries(lines: readonly string[]): Summary[] {
  const summaries: Summary[] = [];
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
function jestSummaries(lines: readonly string[]): Summary[] {
  const summaries: Summary[] = [];
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

const PYTEST_WORDS =
  'passed|failed|errors?|skipped|xfailed|xpassed|deselected|warnings?|rerun|subtests passed|subtests failed';
const PYTEST_LINE = new RegExp(
  `^[=\\s]*((?:\\d+ (?:${PYTEST_WORDS})(?:, )?)+|no tests ran) in \\d+(?:\\.\\d+)?s(?: \\([^)]*\\))?[=\\s]*$`,
);

/** `===== 3 passed, 1 failed in 0.12s =====` (pytest, with or without `-q`). */
function pytestSummaries(lines: readonly string[]): Summary[] {
  const summaries: Summary[] = [];
  for (const line of lines) {
    const match = PYTEST_LINE.exec(line);
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

/** `test result: ok. 5 passed; 0 failed; 1 ignored; ...`, one per test binary (cargo test). */
function cargoSummaries(lines: readonly string[]): Summary[] {
  const summaries: Summary[] = [];
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

/**
 * go test: `-json` events or `-v` lines give every top-level test (subtests are left out,
 * their parent stands for them); plain output names only failures (`--- FAIL:`), so then
 * only `failed` is known.
 */
function goSummaries(lines: readonly string[]): Summary[] {
  const json = { pass: 0, fail: 0, skip: 0, seen: false };
  const verbose = { pass: 0, fail: 0, skip: 0, seen: false };
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
 * The test counts of a gate's output, summed over every summary of node:test / tsx --test
 * (TAP or spec reporter), vitest, jest, pytest, cargo test and go test in it; undefined
 * when none is found.
 *
 * @example
 * parseTestCounts(' Test Files  1 passed (1)\n      Tests  2 failed | 10 passed (12)\n')
 * // { passed: 10, failed: 2, skipped: 0, total: 12, frameworks: ['vitest'] }
 */
export function parseTestCounts(output: string): TestCounts | undefined {
  const lines = outputLines(output);
  const summaries = [
    ...nodeTestSummaries(lines),
    ...vitestSummaries(lines),
    ...jestSummaries(lines),
    ...pytestSummaries(lines),
    ...cargoSummaries(lines),
    ...goSummaries(lines),
  ];
  if (summaries.length === 0) return undefined;
  const frameworks = [...new Set(summaries.map((summary) => summary.framework))];
  const counts: TestCounts = { frameworks };
  for (const key of COUNT_KEYS) {
    const values = summaries.map((summary) => summary[key]);
    if (values.every((value): value is number => value !== undefined))
      counts[key] = values.reduce((sum, value) => sum + value, 0);
  }
  return counts;
}

type Found = { errors: number; warnings: number };

/** tsc: `Found 3 errors in 2 files.` when printed, else the `error TS2322:` lines. */
function tscCounts(lines: readonly string[]): Found | undefined {
  let summary: number | undefined;
  let errorLines = 0;
  for (const line of lines) {
    const found = /^\s*Found (\d+) errors?\b/.exec(line);
    if (found) summary = (summary ?? 0) + Number(found[1]);
    else if (/\berror TS\d+:/.test(line)) errorLines += 1;
  }
  if (summary === undefined && errorLines === 0) return undefined;
  return { errors: summary ?? errorLines, warnings: 0 };
}

/** eslint: `✖ 5 problems (2 errors, 3 warnings)` when printed, else the stylish lines. */
function eslintCounts(lines: readonly string[]): Found | undefined {
  let summary: Found | undefined;
  const stylish: Found = { errors: 0, warnings: 0 };
  for (const line of lines) {
    const total = /^\s*(?:✖|×)?\s*\d+ problems? \((\d+) errors?, (\d+) warnings?\)/.exec(line);
    if (total) {
      summary = {
        errors: (summary?.errors ?? 0) + Number(total[1]),
        warnings: (summary?.warnings ?? 0) + Number(total[2]),
      };
      continue;
    }
    const item = /^\s+\d+:\d+\s+(error|warning)\s{2,}\S/.exec(line);
    if (item) stylish[item[1] === 'error' ? 'errors' : 'warnings'] += 1;
  }
  if (summary) return summary;
  return stylish.errors + stylish.warnings > 0 ? stylish : undefined;
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
function clippyCounts(lines: readonly string[]): Found | undefined {
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
  return { errors: summaryErrors ?? errorLines, warnings: summaryWarnings ?? warningLines };
}

const DIAGNOSTIC_PARSERS: Record<DiagnosticTool, (lines: readonly string[]) => Found | undefined> =
  { tsc: tscCounts, eslint: eslintCounts, clippy: clippyCounts };

/**
 * Errors and warnings of tsc, eslint and cargo clippy in a gate's output, summed over the
 * tools found; undefined when none is found (unless `cleanTool` says a clean run printed
 * nothing).
 *
 * @example
 * parseDiagnosticCounts('\n✖ 5 problems (2 errors, 3 warnings)\n')
 * // { errors: 2, warnings: 3, tools: ['eslint'] }
 */
export function parseDiagnosticCounts(
  output: string,
  options: DiagnosticParseOptions = {},
): DiagnosticCounts | undefined {
  const lines = outputLines(output);
  const result: DiagnosticCounts = { errors: 0, warnings: 0, tools: [] as DiagnosticTool[] };
  for (const tool of DIAGNOSTIC_TOOLS) {
    const found = DIAGNOSTIC_PARSERS[tool](lines);
    if (!found) continue;
    result.errors += found.errors;
    result.warnings += found.warnings;
    result.tools.push(tool);
  }
  if (result.tools.length > 0) return result;
  return options.cleanTool ? { errors: 0, warnings: 0, tools: [options.cleanTool] } : undefined;
}

/**
 * The diagnostic tool a gate command runs by name (`npx tsc --noEmit`, `eslint .`,
 * `cargo clippy`), or undefined (`npm run lint` does not say which tool it runs).
 *
 * @example
 * diagnosticToolOf('npx tsc --noEmit -p .') // 'tsc'
 */
export function diagnosticToolOf(command: string): DiagnosticTool | undefined {
  if (/\bcargo\s+clippy\b/.test(command)) return 'clippy';
  if (/(?:^|[\s/;&|])eslint(?:\s|$)/.test(command)) return 'eslint';
  if (/(?:^|[\s/;&|])tsc(?:\s|$)/.test(command)) return 'tsc';
  return undefined;
}

/**
 * Test and diagnostic counts of one gate's output.
 *
 * @example
 * parseGateOutput(tail, { cleanTool: gate.passed ? diagnosticToolOf(command) : undefined })
 */
export function parseGateOutput(
  output: string,
  options: DiagnosticParseOptions = {},
): GateOutputCounts {
  const tests = parseTestCounts(output);
  const diagnostics = parseDiagnosticCounts(output, options);
  return { ...(tests ? { tests } : {}), ...(diagnostics ? { diagnostics } : {}) };
}

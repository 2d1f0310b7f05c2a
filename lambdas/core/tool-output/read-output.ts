/**
 * The one reader of a tool's output: every tool family reads it (`families.ts`), and
 * their readings are combined into what loop control asks of an output: test and
 * diagnostic counts (progress signals, quality enforcement), vulnerability counts
 * (security gates), the compiler error and the failing tests (retry classification), and
 * a missing-context error. A family is picked by its output, never guessed: what no family
 * recognises stays `undefined`, never a made-up 0. The command picks a family only where
 * the output cannot: a diagnostic tool that succeeded and printed nothing was clean.
 */
import {
  DIAGNOSTIC_TOOLS,
  type DiagnosticCounts,
  type DiagnosticTool,
  type GateOutputCounts,
  type TestCounts,
} from '../schemas/gate-counts.js';
import { vulnerabilityCounts, type SecurityCounts } from './audit.js';
import { CLIPPY_COMMAND } from './cargo.js';
import { ESLINT_COMMAND } from './eslint.js';
import { FAMILIES } from './families.js';
import type { CompileFailure, FamilyReading, TestFailureLine, TestSummary } from './family.js';
import { outputLines } from './lines.js';
import { missingContextIn, type MissingContext } from './missing-context.js';
import { TSC_COMMAND } from './tsc.js';

/** The first compiler error in an output, and how many lines report one. */
export interface CompilerError {
  file: string | null;
  line: number | null;
  column: number | null;
  code: string | null;
  message: string;
  errorCount: number;
  evidence: string;
}

/** The failing tests an output names, and the one to report. */
export interface TestFailure {
  /** The first test named with its file, else the first named. */
  testName: string | null;
  file: string | null;
  /** Every failing test named, first first. */
  failingTests: string[];
  evidence: string;
}

/** What failed, in the shape retry classification reports it. */
export type FirstError =
  ({ kind: 'compilation_error' } & CompilerError) | ({ kind: 'test_failure' } & TestFailure);

export interface ToolOutputReading {
  /** Tests and diagnostics: what an iteration's observation keeps of a gate. */
  counts: GateOutputCounts;
  vulnerabilities?: SecurityCounts;
  compilerError?: CompilerError;
  testFailure?: TestFailure;
  /**
   * What failed first and foremost: the first compiler error (code that does not build
   * tells nothing through its tests), else the failing tests.
   */
  firstError?: FirstError;
  missingContext?: MissingContext;
}

export interface ReadOptions {
  /** The command that printed the output. */
  command?: string;
  /**
   * The command exited 0 in time. With a diagnostic tool named in `command`, output with
   * no diagnostics then means 0 errors and 0 warnings (tsc and eslint print nothing when
   * clean). Leave it out when the tool failed: a crash must not read as clean.
   */
  succeeded?: boolean;
}

/**
 * Everything the families read in one output.
 *
 * @example
 * readToolOutput(' Test Files  1 passed (1)\n      Tests  2 failed | 10 passed (12)\n').counts
 * // { tests: { passed: 10, failed: 2, skipped: 0, total: 12, frameworks: ['vitest'] } }
 * readToolOutput('', { command: 'npx tsc --noEmit', succeeded: true }).counts
 * // { diagnostics: { errors: 0, warnings: 0, tools: ['tsc'] } }
 */
export function readToolOutput(output: string, options: ReadOptions = {}): ToolOutputReading {
  const lines = outputLines(output);
  const readings = FAMILIES.map((family) => family.read(lines));
  const tests = testCounts(readings.flatMap((reading) => reading.tests));
  const cleanTool =
    options.succeeded && options.command !== undefined
      ? diagnosticToolOf(options.command)
      : undefined;
  const diagnostics = diagnosticCounts(readings, cleanTool);
  const failures = readings.flatMap((reading) => reading.failures).sort((a, b) => a.at - b.at);
  const compilerError = firstCompilerError(failures.filter((f) => f.kind === 'compile'));
  const testFailure = failingTests(failures.filter((f) => f.kind === 'test'));
  const firstError: FirstError | undefined = compilerError
    ? { kind: 'compilation_error', ...compilerError }
    : testFailure && { kind: 'test_failure', ...testFailure };
  const vulnerabilities = vulnerabilityCounts(lines.terminal);
  const missingContext = missingContextIn(lines.all);
  return {
    counts: { ...(tests ? { tests } : {}), ...(diagnostics ? { diagnostics } : {}) },
    ...(vulnerabilities ? { vulnerabilities } : {}),
    ...(compilerError ? { compilerError } : {}),
    ...(testFailure ? { testFailure } : {}),
    ...(firstError ? { firstError } : {}),
    ...(missingContext ? { missingContext } : {}),
  };
}

/** Checked in this order: a command running several (`eslint . && tsc`) counts as the first listed. */
const DIAGNOSTIC_COMMANDS: readonly [DiagnosticTool, RegExp][] = [
  ['clippy', CLIPPY_COMMAND],
  ['eslint', ESLINT_COMMAND],
  ['tsc', TSC_COMMAND],
];

/**
 * The diagnostic tool a command runs by name (`npx tsc --noEmit`, `eslint .`,
 * `cargo clippy`), or undefined (`npm run lint` does not say which tool it runs).
 *
 * @example
 * diagnosticToolOf('npx tsc --noEmit -p .') // 'tsc'
 */
export function diagnosticToolOf(command: string): DiagnosticTool | undefined {
  return DIAGNOSTIC_COMMANDS.find(([, pattern]) => pattern.test(command))?.[0];
}

const COUNT_KEYS = ['passed', 'failed', 'skipped', 'total'] as const;

/** Summed over every summary; a count only when every summary tells it. */
function testCounts(summaries: readonly TestSummary[]): TestCounts | undefined {
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

function diagnosticCounts(
  readings: readonly FamilyReading[],
  cleanTool: DiagnosticTool | undefined,
): DiagnosticCounts | undefined {
  const result: DiagnosticCounts = { errors: 0, warnings: 0, tools: [] };
  for (const tool of DIAGNOSTIC_TOOLS) {
    const found = readings.find((reading) => reading.diagnostics?.tool === tool)?.diagnostics;
    if (!found) continue;
    result.errors += found.errors;
    result.warnings += found.warnings;
    result.tools.push(tool);
  }
  if (result.tools.length > 0) return result;
  return cleanTool ? { errors: 0, warnings: 0, tools: [cleanTool] } : undefined;
}

/** Failures in line order; of two on one line, the earlier family's (see `families.ts`). */
function firstCompilerError(errors: readonly CompileFailure[]): CompilerError | undefined {
  const first = errors[0];
  if (!first) return undefined;
  const { kind: _kind, at: _at, ...error } = first;
  return { ...error, errorCount: new Set(errors.map((found) => found.at)).size };
}

function failingTests(found: readonly TestFailureLine[]): TestFailure | undefined {
  if (found.length === 0) return undefined;
  const best = found.find((c) => c.name && c.file) ?? found.find((c) => c.name) ?? found[0];
  return {
    testName: best?.name ?? null,
    file: best?.file ?? found.find((c) => c.file)?.file ?? null,
    failingTests: [...new Set(found.flatMap((c) => (c.name ? [c.name] : [])))],
    evidence: best?.evidence ?? '',
  };
}

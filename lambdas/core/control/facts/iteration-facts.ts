/**
 * What loop control keeps of one iteration, computed once when the iteration is recorded:
 * its task and mode, how it ended, whether it progressed, the signature of the error it
 * ended on, and the tests and warnings its gates reported. Stored as the run's history
 * entry (`IterationSummarySchema`); the run's trends (`run-trends.ts`) are read from these
 * facts alone.
 */
import type { AgentMode, IterationSummary } from '../../schemas/control-history.js';
import type { IterationResult } from '../../schemas/iteration-result.js';
import type { GateCountsByName, ProgressSignals } from '../../schemas/progress-signals.js';
import { errorSignature } from '../../tool-output/error-signature.js';

export type IterationFacts = IterationSummary;

export interface IterationFactsInput {
  result: IterationResult;
  /** The mode (role) the iteration ran in. */
  mode: AgentMode;
  /** Its progress signals: the meaningful-change judgement and the gates' counts. */
  signals: Pick<ProgressSignals, 'meaningfulChange' | 'gateCounts'>;
  /** When it ended (ISO). */
  endedAt: string;
}

/**
 * @example
 * iterationFacts({ result, mode: 'implementer', signals, endedAt });
 * // { iteration: 4, taskId: 'US-002', committed: false, errorSignature: 'src/a.ts:<line> - error TS2322: ...', testsPassed: 9, ... }
 */
export function iterationFacts({
  result,
  mode,
  signals,
  endedAt,
}: IterationFactsInput): IterationFacts {
  const passed = result.outcome === 'passed';
  const failure = passed
    ? undefined
    : (errorSignature(withoutGateHeaders(result.failureDetail)) ??
      errorSignature(result.failureDetail || result.cause || ''));
  return {
    iteration: result.iteration,
    taskId: result.taskId,
    mode,
    outcome: result.outcome,
    committed: passed,
    meaningfulChange: signals.meaningfulChange,
    ...(failure === undefined ? {} : { errorSignature: failure }),
    ...testTallies(signals.gateCounts),
    // This iteration's files only: the history counts each file once per iteration.
    filesTouchedUncommitted: passed ? [] : result.filesChanged,
    endedAt,
  };
}

/** Tests and warnings summed over the gates whose output said; absent when none did. */
function testTallies(
  counts: GateCountsByName,
): Pick<IterationFacts, 'testsPassed' | 'testsFailed' | 'testsTotal' | 'warnings'> {
  const tests = Object.values(counts).flatMap((count) => (count.tests ? [count.tests] : []));
  const diagnostics = Object.values(counts).flatMap((count) =>
    count.diagnostics ? [count.diagnostics] : [],
  );
  const sum = (values: (number | undefined)[]): number | undefined =>
    values.some((value) => value !== undefined)
      ? values.reduce<number>((total, value) => total + (value ?? 0), 0)
      : undefined;
  const passed = sum(tests.map((test) => test.passed));
  const failed = sum(tests.map((test) => test.failed));
  const total = sum(tests.map((test) => test.total));
  const warnings = sum(diagnostics.map((diagnostic) => diagnostic.warnings));
  return {
    ...(passed === undefined ? {} : { testsPassed: passed }),
    ...(failed === undefined ? {} : { testsFailed: failed }),
    ...(total === undefined || total < (passed ?? 0) + (failed ?? 0) ? {} : { testsTotal: total }),
    ...(warnings === undefined ? {} : { warnings }),
  };
}

/**
 * The failure text without the runner's `gate <name> failed (exit 1):` lines: they always
 * read as an error, so two different failures of one gate would share a signature.
 */
function withoutGateHeaders(text: string): string {
  return text
    .split('\n')
    .filter(
      (line) => !/^gate \S+ failed \((?:exit -?\d+|killed|timed out after \d+s)\):/.test(line),
    )
    .join('\n');
}

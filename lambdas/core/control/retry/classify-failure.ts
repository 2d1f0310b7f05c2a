/**
 * Why the last iteration failed (design section 3.5 `FailureClass`), read from the failed
 * gates' output, the transcript's error lines and the outcome. The first rule that holds wins:
 *
 * 1. `too_complex`: the agent timed out, the failed diff has `largeDiffLines` or more, or
 *    the task's failures so far show `distinctErrorsForTooComplex` different errors.
 * 2. From the failed gates (blocking first; lint and security gates are left to remediation):
 *    a compiler error, else a failing test, else the gate's kind (a failed typecheck gate is
 *    a compilation error, a failed test gate a test failure), else a missing-context error.
 * 3. The same three readings of the transcript's error lines, which may be stale (the agent
 *    may have fixed them later), so they come after the gates.
 * 4. `missing_context` when the agent asked `questionsForMissingContext` questions or more.
 * 5. `unknown`.
 */
import { z } from 'zod';
import { GateResultSchema } from '../../schemas/gate-result.js';
import { IterationOutcomeSchema } from '../../schemas/outcome.js';
import { gateKind, GateKindSchema } from '../quality/gate-kind.js';
import { errorSignature } from '../../tool-output/error-signature.js';
import { stripAnsi } from '../../tool-output/lines.js';
import { readToolOutput } from '../../tool-output/read-output.js';

export const FailureContextSchema = z.object({
  outcome: IterationOutcomeSchema.optional(),
  gates: z.array(GateResultSchema).default([]),
  /** Error lines the transcript analysis picked out, oldest first. */
  transcriptErrors: z.array(z.string()).default([]),
  /**
   * The same task's earlier failures, oldest first, each as {@link failureText} gave it
   * (e.g. the task state's `recentErrors`).
   */
  previousErrors: z.array(z.string()).default([]),
  /** Lines added plus removed by the failed change. */
  linesChanged: z.number().int().nonnegative().optional(),
  /** Questions the agent asked in the transcript (it should ask none: nobody answers). */
  agentQuestions: z.number().int().nonnegative().default(0),
});
export type FailureContext = z.infer<typeof FailureContextSchema>;
export type FailureContextInput = z.input<typeof FailureContextSchema>;

export const ClassifyFailureOptionsSchema = z.object({
  /**
   * Different errors among the task's failures (earlier ones and this one) that make it
   * too complex. 2: with `maxTaskAttempts` 3, deciding at the second failure leaves one
   * attempt for the decomposed task's first subtask.
   */
  distinctErrorsForTooComplex: z.number().int().min(2).default(2),
  /** A failed change this large (lines added + removed) tried too much at once. */
  largeDiffLines: z.number().int().positive().default(500),
  questionsForMissingContext: z.number().int().positive().default(1),
  /** Gate name → kind, where the name does not say. */
  gateKinds: z.record(z.string(), GateKindSchema).default({}),
});
export type ClassifyFailureOptions = z.infer<typeof ClassifyFailureOptionsSchema>;
export type ClassifyFailureOptionsInput = z.input<typeof ClassifyFailureOptionsSchema>;

const Evidence = { evidence: z.string() };

export const FailureClassificationSchema = z.discriminatedUnion('kind', [
  z.object({
    kind: z.literal('compilation_error'),
    file: z.string().nullable(),
    line: z.number().int().positive().nullable(),
    column: z.number().int().positive().nullable(),
    /** The compiler's code: `TS2322`, `E0308`. */
    code: z.string().nullable(),
    message: z.string(),
    /** Compiler errors found in the same output. */
    errorCount: z.number().int().nonnegative(),
    ...Evidence,
  }),
  z.object({
    kind: z.literal('test_failure'),
    testName: z.string().nullable(),
    file: z.string().nullable(),
    /** Every failing test named in the output, first first. */
    failingTests: z.array(z.string()),
    ...Evidence,
  }),
  z.object({
    kind: z.literal('too_complex'),
    reason: z.enum(['timeout', 'large_diff', 'distinct_errors']),
    ...Evidence,
  }),
  z.object({
    kind: z.literal('missing_context'),
    /** The module, identifier, path or command that could not be found, when named. */
    subject: z.string().nullable(),
    ...Evidence,
  }),
  z.object({ kind: z.literal('unknown'), ...Evidence }),
]);
export type FailureClassification = z.infer<typeof FailureClassificationSchema>;
export type FailureKind = FailureClassification['kind'];

/**
 * The failure's text as one string: failed gates' output (blocking first), then the
 * transcript's error lines. Store it as the `iteration_ended` event's `error`, so that a
 * later classification compares like with like.
 *
 * @example
 * failureText({ gates: [tscGate], transcriptErrors: [] }) // 'src/a.ts(3,1): error TS2322: ...'
 */
export function failureText(context: FailureContextInput): string {
  const parsed = FailureContextSchema.parse(context);
  return [...failedGates(parsed.gates).map((gate) => gate.outputTail), ...parsed.transcriptErrors]
    .map((text) => stripAnsi(text).trim())
    .filter(Boolean)
    .join('\n');
}

/**
 * The class of the last failure, with what the recovery strategy needs (file and line,
 * failing test, missing subject).
 *
 * @example
 * classifyFailure({ outcome: 'gates_failed', gates: [{ name: 'typecheck', blocking: true,
 *   passed: false, exitCode: 2, timedOut: false, durationMs: 900,
 *   outputTail: "src/a.ts(12,5): error TS2322: Type 'string' is not assignable to type 'number'." }] })
 * // { kind: 'compilation_error', file: 'src/a.ts', line: 12, column: 5, code: 'TS2322', ... }
 */
export function classifyFailure(
  context: FailureContextInput,
  options: ClassifyFailureOptionsInput = {},
): FailureClassification {
  const input = FailureContextSchema.parse(context);
  const settings = ClassifyFailureOptionsSchema.parse(options);

  const complex = tooComplex(input, settings);
  if (complex) return complex;

  const gates = failedGates(input.gates).filter((gate) => {
    const kind = gateKind(gate.name, settings.gateKinds);
    return kind !== 'lint' && kind !== 'security';
  });
  const readings = gates.map((gate) => readToolOutput(stripAnsi(gate.outputTail)));
  const found = readings.find((reading) => reading.firstError)?.firstError;
  if (found) return found;
  for (const gate of gates) {
    const kind = gateKind(gate.name, settings.gateKinds);
    const evidence = `gate ${gate.name} failed (exit ${gate.exitCode ?? 'none'}${gate.timedOut ? ', timed out' : ''})`;
    if (kind === 'typecheck')
      return {
        kind: 'compilation_error',
        file: null,
        line: null,
        column: null,
        code: null,
        message: lastLine(gate.outputTail) ?? evidence,
        errorCount: 0,
        evidence,
      };
    if (kind === 'tests')
      return { kind: 'test_failure', testName: null, file: null, failingTests: [], evidence };
  }
  const missing = readings.find((reading) => reading.missingContext)?.missingContext;
  if (missing) return { kind: 'missing_context', ...missing };

  const transcript = readToolOutput(stripAnsi(input.transcriptErrors.join('\n')));
  if (transcript.firstError) return transcript.firstError;
  if (transcript.missingContext) return { kind: 'missing_context', ...transcript.missingContext };
  if (input.agentQuestions >= settings.questionsForMissingContext)
    return {
      kind: 'missing_context',
      subject: null,
      evidence: `the agent asked ${input.agentQuestions} question${input.agentQuestions === 1 ? '' : 's'} instead of working`,
    };

  return {
    kind: 'unknown',
    evidence:
      lastLine(failureText(input)) ?? `iteration ended ${input.outcome ?? 'without an outcome'}`,
  };
}

function tooComplex(
  input: FailureContext,
  options: ClassifyFailureOptions,
): FailureClassification | undefined {
  if (input.outcome === 'agent_timeout')
    return { kind: 'too_complex', reason: 'timeout', evidence: 'the agent ran out of time' };
  if (input.linesChanged !== undefined && input.linesChanged >= options.largeDiffLines)
    return {
      kind: 'too_complex',
      reason: 'large_diff',
      evidence: `the failed change has ${input.linesChanged} changed lines (limit ${options.largeDiffLines})`,
    };
  const failures = [...input.previousErrors, failureText(input)];
  const distinct = new Set(failures.map((failure) => errorSignature(failure)).filter(Boolean));
  if (distinct.size >= options.distinctErrorsForTooComplex)
    return {
      kind: 'too_complex',
      reason: 'distinct_errors',
      evidence: `${distinct.size} different errors in ${failures.length} failures of this task`,
    };
  return undefined;
}

function failedGates<T extends { passed: boolean; blocking: boolean }>(gates: readonly T[]): T[] {
  const failed = gates.filter((gate) => !gate.passed);
  return [...failed.filter((gate) => gate.blocking), ...failed.filter((gate) => !gate.blocking)];
}

function lastLine(text: string): string | undefined {
  return stripAnsi(text)
    .split('\n')
    .map((line) => line.trim())
    .filter(Boolean)
    .at(-1);
}

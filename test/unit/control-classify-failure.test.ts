import { describe, expect, it } from 'vitest';
import { classifyFailure, failureText } from '../../lambdas/core/control/retry/classify-failure.js';
import type { GateResult } from '../../lambdas/core/schemas/gate-result.js';
import {
  PYTEST_SHORT_SUMMARY,
  RUSTC_ERROR,
  TSC_ERRORS,
  VITEST_FAILURE,
} from '../support/tool-outputs.js';

const ESC = String.fromCharCode(27);
const gate = (
  name: string,
  outputTail: string,
  overrides: Partial<GateResult> = {},
): GateResult => ({
  name,
  blocking: true,
  passed: false,
  exitCode: 1,
  timedOut: false,
  durationMs: 1200,
  outputTail,
  ...overrides,
});

describe('Function: failureText', () => {
  it('joins failed gates, blocking first, then transcript errors, without colours', () => {
    const text = failureText({
      gates: [
        gate('lint', 'lint out', { blocking: false }),
        gate('test', `${ESC}[31mtest out${ESC}[39m`),
        gate('typecheck', 'fine', { passed: true }),
      ],
      transcriptErrors: ['agent error'],
    });
    expect(text).toBe('test out\nlint out\nagent error');
  });
});

describe('Function: classifyFailure', () => {
  it('classifies a failed typecheck gate as a compilation error with file and line', () => {
    expect(
      classifyFailure({ outcome: 'gates_failed', gates: [gate('typecheck', TSC_ERRORS)] }),
    ).toMatchObject({
      kind: 'compilation_error',
      file: 'src/cart/total.ts',
      line: 12,
      code: 'TS2322',
      errorCount: 2,
    });
  });

  it('classifies a failed test gate as a test failure with test and file', () => {
    expect(
      classifyFailure({ outcome: 'gates_failed', gates: [gate('test', VITEST_FAILURE)] }),
    ).toMatchObject({
      kind: 'test_failure',
      testName: 'cart > computes the total',
      file: 'test/unit/cart.test.ts',
    });
  });

  it('reads a compiler error before a test failure, and blocking gates before advisory ones', () => {
    const result = classifyFailure({
      gates: [gate('test', VITEST_FAILURE, { blocking: false }), gate('build', RUSTC_ERROR)],
    });
    expect(result).toMatchObject({ kind: 'compilation_error', file: 'src/main.rs' });
  });

  it("falls back on the gate's kind when its output names nothing", () => {
    expect(classifyFailure({ gates: [gate('typecheck', 'Killed', { exitCode: 137 })] })).toEqual({
      kind: 'compilation_error',
      file: null,
      line: null,
      column: null,
      code: null,
      message: 'Killed',
      errorCount: 0,
      evidence: 'gate typecheck failed (exit 137)',
    });
    expect(
      classifyFailure({ gates: [gate('npm test', '', { timedOut: true, exitCode: null })] }),
    ).toEqual({
      kind: 'test_failure',
      testName: null,
      file: null,
      failingTests: [],
      evidence: 'gate npm test failed (exit none, timed out)',
    });
  });

  it('uses an explicit gate kind where the name does not say', () => {
    const result = classifyFailure(
      { gates: [gate('verify', 'no output')] },
      { gateKinds: { verify: 'tests' } },
    );
    expect(result.kind).toBe('test_failure');
    expect(classifyFailure({ gates: [gate('verify', 'no output')] }).kind).toBe('unknown');
  });

  it('leaves lint and security gates to remediation', () => {
    const eslint =
      "/work/src/a.ts\n  3:10  error  'foo' is not defined  no-undef\n\n✖ 1 problem (1 error, 0 warnings)";
    expect(
      classifyFailure({ gates: [gate('lint', eslint), gate('npm audit', 'Cannot find module x')] }),
    ).toEqual({
      kind: 'unknown',
      evidence: 'Cannot find module x',
    });
  });

  it('classifies missing modules, names, files and commands as missing context', () => {
    const cases: [string, string | null][] = [
      ["Error: Cannot find module './db/client.js'", './db/client.js'],
      ["ModuleNotFoundError: No module named 'requests'", 'requests'],
      ['ReferenceError: fetchUser is not defined', 'fetchUser'],
      ["Error: ENOENT: no such file or directory, open '/work/config.json'", '/work/config.json'],
      ['cat: config/settings.json: No such file or directory', 'config/settings.json'],
      ['bash: pnpm: command not found', 'pnpm'],
      ['Could you clarify which database the app should use?', null],
    ];
    for (const [line, subject] of cases)
      expect(
        classifyFailure({ outcome: 'agent_failed', transcriptErrors: [line] }),
        line,
      ).toMatchObject({
        kind: 'missing_context',
        subject,
        evidence: line,
      });
  });

  it('reads missing context in a failed gate before the transcript', () => {
    const result = classifyFailure({
      gates: [gate('smoke', 'Error: Cannot find module "./server.js"')],
      transcriptErrors: ["src/a.ts(1,1): error TS1005: ';' expected."],
    });
    expect(result).toMatchObject({ kind: 'missing_context', subject: './server.js' });
  });

  it('reads compiler errors and failing tests in the transcript when no gate names them', () => {
    expect(
      classifyFailure({ outcome: 'agent_failed', transcriptErrors: [TSC_ERRORS] }),
    ).toMatchObject({
      kind: 'compilation_error',
    });
    expect(
      classifyFailure({ outcome: 'agent_failed', transcriptErrors: [PYTEST_SHORT_SUMMARY] }),
    ).toMatchObject({
      kind: 'test_failure',
    });
  });

  it.each([
    [0, 'unknown'],
    [1, 'missing_context'],
    [2, 'missing_context'],
  ])('with %i agent questions: %s', (agentQuestions, kind) => {
    expect(classifyFailure({ outcome: 'no_changes', agentQuestions }).kind).toBe(kind);
  });

  it('honours a configured question threshold', () => {
    expect(
      classifyFailure(
        { outcome: 'no_changes', agentQuestions: 1 },
        { questionsForMissingContext: 2 },
      ).kind,
    ).toBe('unknown');
  });

  describe('too complex', () => {
    it('classifies an agent timeout as too complex, before any gate output', () => {
      expect(
        classifyFailure({ outcome: 'agent_timeout', gates: [gate('typecheck', TSC_ERRORS)] }),
      ).toEqual({
        kind: 'too_complex',
        reason: 'timeout',
        evidence: 'the agent ran out of time',
      });
    });

    it.each([
      [499, 'compilation_error'],
      [500, 'too_complex'],
      [501, 'too_complex'],
    ])('with %i changed lines (limit 500): %s', (linesChanged, kind) => {
      expect(classifyFailure({ gates: [gate('typecheck', TSC_ERRORS)], linesChanged }).kind).toBe(
        kind,
      );
    });

    it('does not count the same error twice as different errors', () => {
      const earlier =
        "src/cart/total.ts(14,9): error TS2322: Type 'string' is not assignable to type 'number'.";
      expect(
        classifyFailure({
          gates: [gate('typecheck', TSC_ERRORS)],
          previousErrors: [earlier, earlier],
        }).kind,
      ).toBe('compilation_error');
    });

    it('classifies a second, different error of the task as too complex', () => {
      const result = classifyFailure({
        gates: [gate('typecheck', TSC_ERRORS)],
        previousErrors: ['FAILED tests/test_cart.py::test_total - assert 3 == 4'],
      });
      expect(result).toEqual({
        kind: 'too_complex',
        reason: 'distinct_errors',
        evidence: '2 different errors in 2 failures of this task',
      });
    });

    it('waits for the configured number of different errors', () => {
      const previous = ['FAILED tests/test_cart.py::test_total - assert 3 == 4'];
      const three = { distinctErrorsForTooComplex: 3 };
      expect(
        classifyFailure({ gates: [gate('typecheck', TSC_ERRORS)], previousErrors: previous }, three)
          .kind,
      ).toBe('compilation_error');
      expect(
        classifyFailure(
          {
            gates: [gate('typecheck', TSC_ERRORS)],
            previousErrors: [...previous, 'ReferenceError: x is not defined'],
          },
          three,
        ).kind,
      ).toBe('too_complex');
    });
  });

  it('is unknown when nothing says why, quoting the last line', () => {
    expect(
      classifyFailure({ outcome: 'agent_crashed', transcriptErrors: ['something odd', 'exit 3'] }),
    ).toEqual({
      kind: 'unknown',
      evidence: 'exit 3',
    });
    expect(classifyFailure({ outcome: 'no_changes' })).toEqual({
      kind: 'unknown',
      evidence: 'iteration ended no_changes',
    });
  });
});

import { describe, expect, it } from 'vitest';
import { classifyFailure, failureText } from '../../lambdas/core/control/retry/classify-failure.js';
import { errorSignature } from '../../lambdas/core/tool-output/error-signature.js';
import { parseCompilerError } from '../../lambdas/core/tool-output/parse-compiler.js';
import { parseTestFailure } from '../../lambdas/core/tool-output/parse-tests.js';
import type { GateResult } from '../../lambdas/core/schemas/gate-result.js';

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

const TSC = [
  "src/cart/total.ts(12,5): error TS2322: Type 'string' is not assignable to type 'number'.",
  "src/cart/total.ts(20,11): error TS2339: Property 'qty' does not exist on type 'Item'.",
].join('\n');

const TSC_PRETTY = [
  `${ESC}[96msrc/cart/total.ts${ESC}[0m:${ESC}[93m12${ESC}[0m:${ESC}[93m5${ESC}[0m - ${ESC}[91merror${ESC}[0m${ESC}[90m TS2322: ${ESC}[0mType 'string' is not assignable to type 'number'.`,
  '',
  `${ESC}[7m12${ESC}[0m   total = '0';`,
  `${ESC}[7m  ${ESC}[0m ${ESC}[91m  ~~~~~${ESC}[0m`,
  '',
  'Found 1 error in src/cart/total.ts:12',
].join('\n');

const RUSTC = [
  '   Compiling cart v0.1.0 (/work/cart)',
  'error[E0308]: mismatched types',
  '  --> src/main.rs:12:5',
  '   |',
  '12 |     "0"',
  '   |     ^^^ expected `u32`, found `&str`',
  '',
  'For more information about this error, try `rustc --explain E0308`.',
  'error: could not compile `cart` (bin "cart") due to 1 previous error',
].join('\n');

const VITEST = [
  ' ❯ test/unit/cart.test.ts (3 tests | 1 failed) 12ms',
  '   ✓ cart > adds items 2ms',
  '   × cart > computes the total 5ms',
  '     → expected 3 to be 4 // Object.is equality',
  '',
  '⎯⎯⎯⎯⎯⎯⎯ Failed Tests 1 ⎯⎯⎯⎯⎯⎯⎯',
  '',
  ' FAIL  test/unit/cart.test.ts > cart > computes the total',
  'AssertionError: expected 3 to be 4 // Object.is equality',
  '',
  ' Test Files  1 failed (1)',
].join('\n');

const JEST = [
  'FAIL src/cart.test.js (5.123 s)',
  '  cart',
  '    ✓ adds items (3 ms)',
  '    ✕ computes the total (5 ms)',
  '',
  '  ● cart › computes the total',
  '',
  '    expect(received).toBe(expected) // Object.is equality',
].join('\n');

const NODE_TAP = [
  'TAP version 13',
  '# Subtest: cart',
  '    # Subtest: computes the total',
  '    not ok 1 - computes the total',
  '      ---',
  '      duration_ms: 0.9',
  "      location: '/work/test/cart.test.js:8:3'",
  "      failureType: 'testCodeFailure'",
  '      ...',
  '    1..1',
  'not ok 1 - cart',
  '  ---',
  "  location: '/work/test/cart.test.js:5:1'",
].join('\n');

const PYTEST = [
  '=========================== short test summary info ============================',
  'FAILED tests/test_cart.py::test_total - assert 3 == 4',
  "FAILED tests/test_cart.py::TestCart::test_empty - KeyError: 'items'",
  '========================= 2 failed, 5 passed in 0.12s ==========================',
].join('\n');

describe('Function: parseCompilerError', () => {
  it('reads tsc errors, counting them and locating the first', () => {
    expect(parseCompilerError(TSC)).toEqual({
      file: 'src/cart/total.ts',
      line: 12,
      column: 5,
      code: 'TS2322',
      message: "Type 'string' is not assignable to type 'number'.",
      errorCount: 2,
      evidence:
        "src/cart/total.ts(12,5): error TS2322: Type 'string' is not assignable to type 'number'.",
    });
  });

  it('reads tsc --pretty output once its colours are stripped', () => {
    expect(parseCompilerError(TSC_PRETTY)).toMatchObject({
      file: 'src/cart/total.ts',
      line: 12,
      column: 5,
      code: 'TS2322',
      errorCount: 1,
    });
  });

  it('reads a tsc error without a location', () => {
    expect(
      parseCompilerError("error TS5058: The specified path does not exist: 'tsconfig.app.json'."),
    ).toMatchObject({
      file: null,
      line: null,
      code: 'TS5058',
    });
  });

  it('reads rustc errors from the --> line under them, ignoring the summary', () => {
    expect(parseCompilerError(RUSTC)).toMatchObject({
      file: 'src/main.rs',
      line: 12,
      column: 5,
      code: 'E0308',
      message: 'mismatched types',
      errorCount: 1,
    });
  });

  it.each([
    [
      'src/main/java/App.java:12: error: cannot find symbol\n        total = cart.sum();\n1 error',
      'src/main/java/App.java',
      12,
      null,
      'cannot find symbol',
    ],
    [
      '# example.com/cart\n./total.go:12:5: undefined: sumItems',
      './total.go',
      12,
      5,
      'undefined: sumItems',
    ],
    [
      "src/total.c:12:5: error: expected ';' before 'return'",
      'src/total.c',
      12,
      5,
      "expected ';' before 'return'",
    ],
    [
      'src/App.kt:3:9: fatal error: unresolved reference: foo',
      'src/App.kt',
      3,
      9,
      'unresolved reference: foo',
    ],
  ])('reads %j', (output, file, line, column, message) => {
    expect(parseCompilerError(output)).toMatchObject({ file, line, column, message });
  });

  it('reads a Python syntax error at the nearest location above it', () => {
    const output = [
      'Traceback (most recent call last):',
      '  File "/work/app/main.py", line 1, in <module>',
      '    from cart import total',
      '  File "/work/app/cart.py", line 12',
      '    def total(items:',
      '                   ^',
      "SyntaxError: '(' was never closed",
    ].join('\n');
    expect(parseCompilerError(output)).toMatchObject({
      file: '/work/app/cart.py',
      line: 12,
      code: 'SyntaxError',
      message: "'(' was never closed",
    });
  });

  it('reads a Node syntax error under its file:line header', () => {
    const output =
      "/work/src/cart.js:12\n  return total +;\n                ^\n\nSyntaxError: Unexpected token ';'\n    at internalCompileFunction (node:internal/vm:76:18)";
    expect(parseCompilerError(output)).toMatchObject({
      file: '/work/src/cart.js',
      line: 12,
      code: 'SyntaxError',
    });
  });

  it('does not take a runtime SyntaxError without a location for a compiler error', () => {
    expect(
      parseCompilerError('SyntaxError: Unexpected token } in JSON at position 12'),
    ).toBeUndefined();
  });

  it('finds nothing in output without compiler errors', () => {
    expect(
      parseCompilerError("  3:10  error  'foo' is defined but never used  no-unused-vars"),
    ).toBeUndefined();
    expect(parseCompilerError('main_test.go:14: Total() = 3, want 4')).toBeUndefined();
  });
});

describe('Function: parseTestFailure', () => {
  it('reads vitest: test name and file', () => {
    expect(parseTestFailure(VITEST)).toEqual({
      testName: 'cart > computes the total',
      file: 'test/unit/cart.test.ts',
      failingTests: ['cart > computes the total'],
      evidence: '× cart > computes the total 5ms',
    });
  });

  it('reads jest: the first failing test, with the file from its FAIL line', () => {
    expect(parseTestFailure(JEST)).toMatchObject({
      testName: 'computes the total',
      file: 'src/cart.test.js',
    });
  });

  it('reads node:test TAP, taking the innermost failing test and its location', () => {
    expect(parseTestFailure(NODE_TAP)).toMatchObject({
      testName: 'computes the total',
      file: '/work/test/cart.test.js',
      failingTests: ['computes the total', 'cart'],
    });
  });

  it('reads the node:test spec reporter', () => {
    const output =
      '▶ cart\n  ✖ computes the total (1.0451ms)\n    AssertionError [ERR_ASSERTION]: Expected values to be strictly equal:';
    expect(parseTestFailure(output)).toMatchObject({ testName: 'computes the total', file: null });
  });

  it('reads pytest, keeping class-qualified names', () => {
    expect(parseTestFailure(PYTEST)).toMatchObject({
      testName: 'test_total',
      file: 'tests/test_cart.py',
      failingTests: ['test_total', 'TestCart::test_empty'],
    });
  });

  it('reads go test and cargo test', () => {
    const go =
      '--- FAIL: TestTotal (0.00s)\n    total_test.go:14: Total() = 3, want 4\nFAIL\nFAIL\texample.com/cart\t0.002s';
    expect(parseTestFailure(go)).toMatchObject({ testName: 'TestTotal', file: 'total_test.go' });
    const cargo = 'running 2 tests\ntest tests::adds ... ok\ntest tests::totals ... FAILED\n';
    expect(parseTestFailure(cargo)).toMatchObject({ testName: 'tests::totals', file: null });
  });

  it('reads a vitest suite that failed to load: a file, no test', () => {
    const output =
      " FAIL  test/unit/db.test.ts [ test/unit/db.test.ts ]\nError: Cannot find module '../../src/db.js'";
    expect(parseTestFailure(output)).toMatchObject({
      testName: null,
      file: 'test/unit/db.test.ts',
    });
  });

  it('finds nothing in passing output', () => {
    expect(
      parseTestFailure(' ✓ test/unit/cart.test.ts (3 tests) 4ms\n Test Files  1 passed (1)'),
    ).toBeUndefined();
  });
});

describe('Function: errorSignature', () => {
  it('is the same for one error at another line and different for another error', () => {
    const a = errorSignature("src/a.ts(12,5): error TS2322: Type 'string' is not assignable");
    expect(errorSignature("src/a.ts(30,1): error TS2322: Type 'string' is not assignable")).toBe(a);
    expect(errorSignature("src/a.ts(12,5): error TS2339: Property 'x' does not exist")).not.toBe(a);
    expect(errorSignature('  \n ')).toBeUndefined();
  });
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
      classifyFailure({ outcome: 'gates_failed', gates: [gate('typecheck', TSC)] }),
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
      classifyFailure({ outcome: 'gates_failed', gates: [gate('test', VITEST)] }),
    ).toMatchObject({
      kind: 'test_failure',
      testName: 'cart > computes the total',
      file: 'test/unit/cart.test.ts',
    });
  });

  it('reads a compiler error before a test failure, and blocking gates before advisory ones', () => {
    const result = classifyFailure({
      gates: [gate('test', VITEST, { blocking: false }), gate('build', RUSTC)],
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
    expect(classifyFailure({ outcome: 'agent_failed', transcriptErrors: [TSC] })).toMatchObject({
      kind: 'compilation_error',
    });
    expect(classifyFailure({ outcome: 'agent_failed', transcriptErrors: [PYTEST] })).toMatchObject({
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
        classifyFailure({ outcome: 'agent_timeout', gates: [gate('typecheck', TSC)] }),
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
      expect(classifyFailure({ gates: [gate('typecheck', TSC)], linesChanged }).kind).toBe(kind);
    });

    it('does not count the same error twice as different errors', () => {
      const earlier =
        "src/cart/total.ts(14,9): error TS2322: Type 'string' is not assignable to type 'number'.";
      expect(
        classifyFailure({ gates: [gate('typecheck', TSC)], previousErrors: [earlier, earlier] })
          .kind,
      ).toBe('compilation_error');
    });

    it('classifies a second, different error of the task as too complex', () => {
      const result = classifyFailure({
        gates: [gate('typecheck', TSC)],
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
        classifyFailure({ gates: [gate('typecheck', TSC)], previousErrors: previous }, three).kind,
      ).toBe('compilation_error');
      expect(
        classifyFailure(
          {
            gates: [gate('typecheck', TSC)],
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

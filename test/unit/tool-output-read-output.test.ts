import { describe, expect, it } from 'vitest';
import { diagnosticToolOf, readToolOutput } from '../../lambdas/core/tool-output/read-output.js';
import {
  compilerErrorOf,
  countsOf,
  diagnosticsOf,
  ESLINT_STYLISH,
  GO_QUIET_FAILED,
  JEST_FAILED,
  PYTEST_SHORT_SUMMARY,
  RUSTC_ERROR,
  TSC_ERRORS,
  TSC_PLAIN,
  TSC_PRETTY,
  testFailureOf,
  testsOf,
  VITEST_FAILED,
  VITEST_FAILURE,
} from '../support/tool-outputs.js';

describe('Function: readToolOutput', () => {
  describe('counts summed over the families', () => {
    it('sums summaries of different frameworks, and leaves out a count one of them lacks', () => {
      expect(testsOf(`${JEST_FAILED}\n${GO_QUIET_FAILED}`)).toEqual({
        failed: 2,
        frameworks: ['jest', 'go'],
      });
    });

    it.each([
      ['empty output', ''],
      ['a build log', '> shop@1.0.0 build\n> tsc -p .\n\nDone in 2.1s\n'],
      [
        'a crash',
        'node:internal/modules/cjs/loader:1147\n  throw err;\n  ^\n\nError: Cannot find module',
      ],
      ['vitest finding no tests', '\nNo test files found, exiting with code 1\n'],
      ['prose mentioning tests', 'Tests are great. 3 tests passed yesterday.\n'],
    ])('is undefined for %s, never a made-up 0', (_what, output) => {
      expect(testsOf(output)).toBeUndefined();
    });

    it('sums several tools in one output', () => {
      expect(diagnosticsOf(`${ESLINT_STYLISH}${TSC_PRETTY}`)).toEqual({
        errors: 4,
        warnings: 3,
        tools: ['tsc', 'eslint'],
      });
    });

    it('gives tests and diagnostics found in one output', () => {
      expect(countsOf(`${TSC_PLAIN}\n${VITEST_FAILED}`)).toEqual({
        tests: { passed: 10, failed: 2, skipped: 0, total: 12, frameworks: ['vitest'] },
        diagnostics: { errors: 3, warnings: 0, tools: ['tsc'] },
      });
    });

    it('leaves out what it did not find', () => {
      expect(countsOf(JEST_FAILED)).toEqual({
        tests: { passed: 5, failed: 1, skipped: 0, total: 6, frameworks: ['jest'] },
      });
      expect(countsOf('Done in 2.1s')).toEqual({});
    });
  });

  describe('clean diagnostic tools, picked from the command', () => {
    it('is undefined for empty output unless a tool is known to have run clean', () => {
      expect(diagnosticsOf('')).toBeUndefined();
      expect(diagnosticsOf('', { command: 'npx tsc --noEmit', succeeded: true })).toEqual({
        errors: 0,
        warnings: 0,
        tools: ['tsc'],
      });
    });

    it('prefers what the output says over the clean-tool assumption', () => {
      expect(diagnosticsOf(ESLINT_STYLISH, { command: 'eslint .', succeeded: true })).toEqual({
        errors: 2,
        warnings: 3,
        tools: ['eslint'],
      });
    });

    it('does not take a failed or unknown command for a clean run', () => {
      expect(diagnosticsOf('', { command: 'npx tsc --noEmit', succeeded: false })).toBeUndefined();
      expect(diagnosticsOf('', { succeeded: true })).toBeUndefined();
      expect(diagnosticsOf('', { command: 'npm run lint', succeeded: true })).toBeUndefined();
    });

    it('takes a command running several tools for the first of clippy, eslint and tsc', () => {
      expect(diagnosticToolOf('tsc --noEmit && eslint .')).toBe('eslint');
      expect(diagnosticToolOf('eslint . && cargo clippy')).toBe('clippy');
    });
  });

  describe('failures', () => {
    it('finds nothing in output without compiler errors', () => {
      expect(
        compilerErrorOf("  3:10  error  'foo' is defined but never used  no-unused-vars"),
      ).toBeUndefined();
      expect(compilerErrorOf('main_test.go:14: Total() = 3, want 4')).toBeUndefined();
    });

    it('finds nothing in passing output', () => {
      expect(
        testFailureOf(' ✓ test/unit/cart.test.ts (3 tests) 4ms\n Test Files  1 passed (1)'),
      ).toBeUndefined();
    });

    it('takes a compiler error for what failed first, over failing tests', () => {
      // Act
      const reading = readToolOutput(`${VITEST_FAILURE}\n${TSC_ERRORS}`);

      // Assess
      expect(reading.firstError).toEqual({ kind: 'compilation_error', ...reading.compilerError });
      expect(reading.testFailure).toMatchObject({ testName: 'cart > computes the total' });
    });

    it('takes the failing tests for what failed when the code compiled', () => {
      expect(readToolOutput(PYTEST_SHORT_SUMMARY).firstError).toEqual({
        kind: 'test_failure',
        ...testFailureOf(PYTEST_SHORT_SUMMARY),
      });
      expect(readToolOutput('Done in 2.1s').firstError).toBeUndefined();
    });

    it('counts compiler errors of every family, once per line, the first by line', () => {
      // Prepare
      const output = `${RUSTC_ERROR}\n${TSC_ERRORS}`;

      // Act + Assess
      expect(compilerErrorOf(output)).toMatchObject({ file: 'src/main.rs', errorCount: 3 });
    });

    it('names a failing test with its file before one without, whatever the family', () => {
      // Prepare: cargo names no file, pytest does
      const output = `test tests::totals ... FAILED\n${PYTEST_SHORT_SUMMARY}`;

      // Act + Assess
      expect(testFailureOf(output)).toEqual({
        testName: 'test_total',
        file: 'tests/test_cart.py',
        failingTests: ['tests::totals', 'test_total', 'TestCart::test_empty'],
        evidence: 'FAILED tests/test_cart.py::test_total - assert 3 == 4',
      });
    });

    it('reads a missing-context error and vulnerability counts', () => {
      // Act
      const reading = readToolOutput(
        "Error: Cannot find module './db.js'\nfound 2 vulnerabilities (1 low, 1 critical)\n",
      );

      // Assess
      expect(reading.missingContext).toEqual({
        subject: './db.js',
        evidence: "Error: Cannot find module './db.js'",
      });
      expect(reading.vulnerabilities).toMatchObject({ critical: 1, low: 1, format: 'npm' });
    });
  });
});

describe('Function: diagnosticToolOf', () => {
  it.each([
    ['npx tsc --noEmit -p .', 'tsc'],
    ['tsc', 'tsc'],
    ['node_modules/.bin/tsc -b', 'tsc'],
    ['npx eslint .', 'eslint'],
    ['eslint src --max-warnings 0', 'eslint'],
    ['cargo clippy --all-targets -- -D warnings', 'clippy'],
    ['npm run lint', undefined],
    ['vitest run', undefined],
    ['npx tsc-watch', undefined],
    ['eslint-config-check', undefined],
  ])('%s → %s', (command, tool) => {
    expect(diagnosticToolOf(command)).toBe(tool);
  });
});

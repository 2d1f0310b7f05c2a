import { describe, expect, it } from 'vitest';
import {
  CARGO_FAILED,
  CARGO_OK_SEVERAL_BINARIES,
  CLIPPY_CLEAN,
  CLIPPY_ERROR,
  CLIPPY_WARNINGS,
  compilerErrorOf,
  diagnosticsOf,
  RUSTC_ERROR,
  testFailureOf,
  testsOf,
} from '../support/tool-outputs.js';

describe('Family: cargo and rustc', () => {
  describe('test counts', () => {
    it('reads a failing cargo test run', () => {
      expect(testsOf(CARGO_FAILED)).toEqual({
        passed: 3,
        failed: 1,
        skipped: 1,
        total: 5,
        frameworks: ['cargo'],
      });
    });

    it('sums the summaries of every cargo test binary, doc-tests included', () => {
      expect(testsOf(CARGO_OK_SEVERAL_BINARIES)).toEqual({
        passed: 6,
        failed: 0,
        skipped: 0,
        total: 6,
        frameworks: ['cargo'],
      });
    });
  });

  describe('diagnostics', () => {
    it('counts clippy warnings from the generated summaries, duplicates left out', () => {
      expect(diagnosticsOf(CLIPPY_WARNINGS)).toEqual({
        errors: 0,
        warnings: 2,
        tools: ['clippy'],
      });
    });

    it("does not count a failed target's warnings twice (generated and emitted)", () => {
      expect(diagnosticsOf(CLIPPY_ERROR)).toEqual({
        errors: 1,
        warnings: 1,
        tools: ['clippy'],
      });
    });

    it('counts clippy warning lines when no summary is printed', () => {
      const cut = CLIPPY_WARNINGS.split('\n')
        .filter((line) => !line.includes('generated'))
        .join('\n');
      expect(diagnosticsOf(cut)).toEqual({ errors: 0, warnings: 2, tools: ['clippy'] });
    });

    it('reads clean cargo output as 0 and 0: cargo prints its own lines even then', () => {
      expect(diagnosticsOf(CLIPPY_CLEAN)).toEqual({
        errors: 0,
        warnings: 0,
        tools: ['clippy'],
      });
    });

    it("does not take cargo test's 'test failed' line for a compiler error", () => {
      expect(diagnosticsOf(CARGO_FAILED)).toEqual({
        errors: 0,
        warnings: 0,
        tools: ['clippy'],
      });
    });

    it("does not take another tool's warning lines for rust's", () => {
      expect(
        diagnosticsOf('npm warn deprecated glob@7.2.3\nwarning: LF will be replaced by CRLF\n'),
      ).toBeUndefined();
    });
  });

  describe('compiler errors', () => {
    it('reads rustc errors from the --> line under them, ignoring the summary', () => {
      expect(compilerErrorOf(RUSTC_ERROR)).toMatchObject({
        file: 'src/main.rs',
        line: 12,
        column: 5,
        code: 'E0308',
        message: 'mismatched types',
        errorCount: 1,
      });
    });
  });

  describe('failing tests', () => {
    it('reads cargo test', () => {
      const cargo = 'running 2 tests\ntest tests::adds ... ok\ntest tests::totals ... FAILED\n';
      expect(testFailureOf(cargo)).toMatchObject({ testName: 'tests::totals', file: null });
    });
  });
});

import { describe, expect, it } from 'vitest';
import {
  JEST_FAILED,
  JEST_FAILURE,
  JEST_SKIPS,
  testFailureOf,
  testsOf,
  VITEST_COLOURED,
  VITEST_FAILED,
  VITEST_FAILURE,
} from '../support/tool-outputs.js';

describe('Family: vitest and jest', () => {
  describe('test counts', () => {
    it('reads a failing vitest run from its Tests line, not its Test Files line', () => {
      expect(testsOf(VITEST_FAILED)).toEqual({
        passed: 10,
        failed: 2,
        skipped: 0,
        total: 12,
        frameworks: ['vitest'],
      });
    });

    it('reads coloured vitest output with skipped and todo tests', () => {
      expect(testsOf(VITEST_COLOURED)).toEqual({
        passed: 9,
        failed: 0,
        skipped: 3,
        total: 12,
        frameworks: ['vitest'],
      });
    });

    it('reads jest summaries, with skipped and todo tests as skipped', () => {
      expect(testsOf(JEST_FAILED)).toEqual({
        passed: 5,
        failed: 1,
        skipped: 0,
        total: 6,
        frameworks: ['jest'],
      });
      expect(testsOf(JEST_SKIPS)).toEqual({
        passed: 5,
        failed: 0,
        skipped: 3,
        total: 8,
        frameworks: ['jest'],
      });
    });
  });

  describe('failing tests', () => {
    it('reads vitest: test name and file', () => {
      expect(testFailureOf(VITEST_FAILURE)).toEqual({
        testName: 'cart > computes the total',
        file: 'test/unit/cart.test.ts',
        failingTests: ['cart > computes the total'],
        evidence: '× cart > computes the total 5ms',
      });
    });

    it('reads jest: the first failing test, with the file from its FAIL line', () => {
      expect(testFailureOf(JEST_FAILURE)).toMatchObject({
        testName: 'computes the total',
        file: 'src/cart.test.js',
      });
    });

    it('reads a vitest suite that failed to load: a file, no test', () => {
      const output =
        " FAIL  test/unit/db.test.ts [ test/unit/db.test.ts ]\nError: Cannot find module '../../src/db.js'";
      expect(testFailureOf(output)).toMatchObject({
        testName: null,
        file: 'test/unit/db.test.ts',
      });
    });
  });
});

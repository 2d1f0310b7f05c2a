import { describe, expect, it } from 'vitest';
import {
  PYTEST_FAILED,
  PYTEST_SHORT_SUMMARY,
  testFailureOf,
  testsOf,
} from '../support/tool-outputs.js';

describe('Family: pytest', () => {
  describe('test counts', () => {
    it('reads a pytest session summary', () => {
      expect(testsOf(PYTEST_FAILED)).toEqual({
        passed: 4,
        failed: 1,
        skipped: 1,
        total: 6,
        frameworks: ['pytest'],
      });
    });

    it.each([
      ['3 passed, 1 failed in 0.31s', { passed: 3, failed: 1, skipped: 0, total: 4 }],
      ['5 passed, 1 warning in 0.05s', { passed: 5, failed: 0, skipped: 0, total: 5 }],
      ['====== 2 passed, 1 error in 0.30s ======', { passed: 2, failed: 1, skipped: 0, total: 3 }],
      [
        '=== 1 failed, 2 passed, 1 xfailed, 1 xpassed, 3 deselected in 1.20s (0:00:01) ===',
        { passed: 3, failed: 1, skipped: 1, total: 5 },
      ],
      [
        '============ no tests ran in 0.01s ============',
        { passed: 0, failed: 0, skipped: 0, total: 0 },
      ],
    ])('reads the pytest summary %j', (line, counts) => {
      expect(testsOf(line)).toEqual({ ...counts, frameworks: ['pytest'] });
    });
  });

  describe('failing tests', () => {
    it('reads pytest, keeping class-qualified names', () => {
      expect(testFailureOf(PYTEST_SHORT_SUMMARY)).toMatchObject({
        testName: 'test_total',
        file: 'tests/test_cart.py',
        failingTests: ['test_total', 'TestCart::test_empty'],
      });
    });
  });
});

import { describe, expect, it } from 'vitest';
import {
  compilerErrorOf,
  GO_JSON,
  GO_QUIET_FAILED,
  GO_QUIET_OK,
  GO_VERBOSE,
  testFailureOf,
  testsOf,
} from '../support/tool-outputs.js';

describe('Family: go', () => {
  describe('test counts', () => {
    it('counts top-level go tests of a -v run, subtests left to their parent', () => {
      expect(testsOf(GO_VERBOSE)).toEqual({
        passed: 2,
        failed: 1,
        skipped: 1,
        total: 4,
        frameworks: ['go'],
      });
    });

    it('counts go test -json events of top-level tests only', () => {
      expect(testsOf(GO_JSON)).toEqual({
        passed: 2,
        failed: 1,
        skipped: 1,
        total: 4,
        frameworks: ['go'],
      });
    });

    it('knows only the failures of a go test run without -v', () => {
      expect(testsOf(GO_QUIET_FAILED)).toEqual({ failed: 1, frameworks: ['go'] });
      expect(testsOf(GO_QUIET_OK)).toEqual({ failed: 0, frameworks: ['go'] });
    });
  });

  describe('compiler errors', () => {
    it('reads go build errors', () => {
      expect(
        compilerErrorOf('# example.com/cart\n./total.go:12:5: undefined: sumItems'),
      ).toMatchObject({
        file: './total.go',
        line: 12,
        column: 5,
        message: 'undefined: sumItems',
      });
    });
  });

  describe('failing tests', () => {
    it('reads go test', () => {
      const go =
        '--- FAIL: TestTotal (0.00s)\n    total_test.go:14: Total() = 3, want 4\nFAIL\nFAIL\texample.com/cart\t0.002s';
      expect(testFailureOf(go)).toMatchObject({ testName: 'TestTotal', file: 'total_test.go' });
    });
  });
});

import { describe, expect, it } from 'vitest';
import {
  NODE_SPEC,
  NODE_TAP,
  NODE_TAP_NESTED,
  testFailureOf,
  testsOf,
} from '../support/tool-outputs.js';

describe('Family: node:test and tape', () => {
  describe('test counts', () => {
    it('reads node:test TAP output (tsx --test)', () => {
      expect(testsOf(NODE_TAP)).toEqual({
        passed: 3,
        failed: 1,
        skipped: 0,
        total: 4,
        frameworks: ['node-test'],
      });
    });

    it('reads the node:test spec reporter, counting cancelled as failed', () => {
      expect(testsOf(NODE_SPEC)).toEqual({
        passed: 2,
        failed: 2,
        skipped: 1,
        total: 5,
        frameworks: ['node-test'],
      });
    });

    it('reads tape, which prints no fail line when nothing failed', () => {
      expect(testsOf('ok 1 adds\nok 2 removes\n\n1..2\n# tests 2\n# pass  2\n\n# ok\n')).toEqual({
        passed: 2,
        failed: 0,
        skipped: 0,
        total: 2,
        frameworks: ['node-test'],
      });
    });
  });

  describe('failing tests', () => {
    it('reads node:test TAP, taking the innermost failing test and its location', () => {
      expect(testFailureOf(NODE_TAP_NESTED)).toMatchObject({
        testName: 'computes the total',
        file: '/work/test/cart.test.js',
        failingTests: ['computes the total', 'cart'],
      });
    });

    it('reads the node:test spec reporter', () => {
      const output =
        '▶ cart\n  ✖ computes the total (1.0451ms)\n    AssertionError [ERR_ASSERTION]: Expected values to be strictly equal:';
      expect(testFailureOf(output)).toMatchObject({ testName: 'computes the total', file: null });
    });
  });
});

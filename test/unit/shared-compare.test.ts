import { describe, expect, it } from 'vitest';
import {
  atLeast,
  atMost,
  EPSILON,
  exceeds,
  fallsBelow,
  nearlyEqual,
} from '../../lambdas/core/shared/compare.js';

describe('Function: exceeds / fallsBelow / atLeast / atMost / nearlyEqual', () => {
  it('treats floating-point noise at a boundary as equality', () => {
    // Prepare
    const gap = 1.1 - 0.6; // 0.5000000000000001

    // Act & Assess
    expect(gap).not.toBe(0.5);
    expect(exceeds(gap, 0.5)).toBe(false);
    expect(atMost(gap, 0.5)).toBe(true);
    expect(fallsBelow(3.9999999999999996, 4)).toBe(false);
    expect(atLeast(3.9999999999999996, 4)).toBe(true);
    expect(nearlyEqual(0.1 + 0.2, 0.3)).toBe(true);
  });

  it('decides real differences just beyond the tolerance', () => {
    const beyond = 10 * EPSILON;
    expect(exceeds(0.5 + beyond, 0.5)).toBe(true);
    expect(atMost(0.5 + beyond, 0.5)).toBe(false);
    expect(fallsBelow(4 - beyond, 4)).toBe(true);
    expect(atLeast(4 - beyond, 4)).toBe(false);
    expect(nearlyEqual(1, 1 + beyond)).toBe(false);
  });
});

import { describe, expect, it } from 'vitest';
import { everyRuling, firstRuling, type Rule } from '../../lambdas/core/control/rules.js';

type Facts = { value: number };
const over =
  (limit: number, name: string): Rule<Facts, number, string> =>
  (facts, scale) =>
    facts.value * scale > limit ? name : undefined;
const RULES = [over(10, 'ten'), over(5, 'five'), over(1, 'one')];

describe('Function: firstRuling', () => {
  it('gives the ruling of the first rule that applies, in table order', () => {
    expect(firstRuling(RULES, { value: 7 }, 1)).toBe('five');
    expect(firstRuling(RULES, { value: 7 }, 2)).toBe('ten');
  });

  it('gives undefined when no rule applies', () => {
    expect(firstRuling(RULES, { value: 0 }, 1)).toBeUndefined();
  });
});

describe('Function: everyRuling', () => {
  it('gives the ruling of every rule that applies, in table order', () => {
    expect(everyRuling(RULES, { value: 7 }, 1)).toEqual(['five', 'one']);
    expect(everyRuling(RULES, { value: 0 }, 1)).toEqual([]);
  });
});

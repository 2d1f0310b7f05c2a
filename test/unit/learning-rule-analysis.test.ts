import { describe, expect, it } from 'vitest';
import { analyzeRules } from '../../lambdas/core/learning/rule-analysis.js';
import { makeProjectRule } from '../support/learning-records.js';

describe('Function: analyzeRules', () => {
  it('counts rules by category, most first, and lists the most promoted', () => {
    // Prepare
    const rules = [
      makeProjectRule({ ruleId: 'a', category: 'testing', promotionCount: 2 }),
      makeProjectRule({ ruleId: 'b', category: 'bugfix', promotionCount: 5 }),
      makeProjectRule({
        ruleId: 'c',
        category: 'testing',
        promotionCount: 2,
        lastSeen: '2026-03-01T00:00:00Z',
        status: 'deprecated',
      }),
      makeProjectRule({ ruleId: 'd', category: 'docs', promotionCount: 1 }),
    ];

    // Act
    const analysis = analyzeRules(rules, 3);

    // Assess
    expect(analysis).toMatchObject({ total: 4, active: 3, deprecated: 1 });
    expect(analysis.byCategory).toEqual([
      { category: 'testing', total: 2, active: 1 },
      { category: 'bugfix', total: 1, active: 1 },
      { category: 'docs', total: 1, active: 1 },
    ]);
    // Ties on promotions: the most recently seen first.
    expect(analysis.mostPromoted.map((rule) => rule.ruleId)).toEqual(['b', 'c', 'a']);
  });

  it('has nothing to say about no rules', () => {
    expect(analyzeRules([])).toEqual({
      total: 0,
      active: 0,
      deprecated: 0,
      byCategory: [],
      mostPromoted: [],
    });
  });
});

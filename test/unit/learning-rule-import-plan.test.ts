import { describe, expect, it } from 'vitest';
import { planRuleImport } from '../../lambdas/core/learning/rule-import-plan.js';
import { makeProjectRule } from '../support/learning-records.js';

describe('Function: planRuleImport', () => {
  it('adds a new rule as version 1 and skips one present identically', () => {
    // Prepare
    const stored = makeProjectRule({ version: 4 });
    const fresh = makeProjectRule({ ruleId: 'r-new', version: 2 });

    // Act
    const plan = planRuleImport([stored], [stored, fresh], {});

    // Assess
    expect(plan.added).toEqual([{ ...fresh, version: 1 }]);
    expect(plan.merged).toEqual([]);
    expect(plan.skipped).toEqual([
      { projectId: 'shop', ruleId: stored.ruleId, reason: 'already present' },
    ]);
  });

  it('sums promotions from hints not counted yet; a shared hint keeps the larger count', () => {
    // Prepare
    const stored = makeProjectRule({ version: 2, promotionCount: 2 });
    const disjoint = makeProjectRule({
      sourceHints: ['run-z/h1'],
      promotionCount: 1,
      lastSeen: '2026-03-01T00:00:00Z',
      constraint: 'Run the typecheck before every commit',
    });
    const overlapping = makeProjectRule({
      sourceHints: ['run-a/h3', 'run-y/h2'],
      promotionCount: 3,
      status: 'deprecated',
      deprecatedReason: 'the linter checks it now',
    });

    // Act
    const summed = planRuleImport([stored], [disjoint], {}).merged;
    const kept = planRuleImport([stored], [overlapping], {}).merged;

    // Assess
    expect(summed).toEqual([
      {
        expectedVersion: 2,
        rule: {
          ...stored,
          promotionCount: 3,
          sourceHints: ['run-a/h3', 'run-a/h5', 'run-z/h1'],
          lastSeen: '2026-03-01T00:00:00Z',
          constraint: 'Run the typecheck before every commit',
        },
      },
    ]);
    expect(kept[0]?.rule).toMatchObject({
      promotionCount: 3,
      sourceHints: ['run-a/h3', 'run-a/h5', 'run-y/h2'],
      status: 'deprecated',
      deprecatedReason: 'the linter checks it now',
    });
  });

  it('moves rules to the given project, and skips a project nothing here knows', () => {
    // Prepare
    const rule = makeProjectRule({ projectId: 'web' });

    // Act
    const moved = planRuleImport([], [rule], { projectId: 'shop' });
    const unknown = planRuleImport([], [rule], { knownProjects: ['shop'] });

    // Assess
    expect(moved.added.map((r) => r.projectId)).toEqual(['shop']);
    expect(unknown.added).toEqual([]);
    expect(unknown.skipped).toEqual([
      {
        projectId: 'web',
        ruleId: rule.ruleId,
        reason: "project web is not one of this data's (shop): import it with --scope project:<id>",
      },
    ]);
  });
});

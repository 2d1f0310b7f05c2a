import { describe, expect, it } from 'vitest';
import { isBudgetStop } from '../../lambdas/core/costs/budget.js';
import { decideNext } from '../../lambdas/core/loop/decide-next.js';
import { RunConfigSchema } from '../../lambdas/core/schemas/config.js';
import { makeRun, makeTask } from '../support/records.js';

const tasks = [makeTask({ taskId: 'US-001' }), makeTask({ taskId: 'US-002', priority: 2 })];

describe('Function: decideNext (cost budgets)', () => {
  it("stops a run once its receipts' sum reaches limits.maxCostUsd", () => {
    // Prepare
    const run = makeRun({ config: { limits: { maxCostUsd: 1 } }, costUsd: 1.23 });

    // Act
    const next = decideNext(run, tasks);

    // Assess
    expect(next).toEqual({
      action: 'abort',
      reason: 'cost budget reached: $1.23 of $1.00 (limits.maxCostUsd); 0 of 2 stories pass',
    });
    expect(isBudgetStop(next.reason)).toBe(true);
  });

  it('goes on below the budget, and without one whatever the cost', () => {
    expect(
      decideNext(makeRun({ config: { limits: { maxCostUsd: 1 } }, costUsd: 0.99 }), tasks).action,
    ).toBe('continue');
    expect(decideNext(makeRun({ costUsd: 1000 }), tasks).action).toBe('continue');
  });

  it("stops on the project's spend today against limits.maxCostUsdPerProjectDay", () => {
    // Prepare
    const run = makeRun({ config: { limits: { maxCostUsdPerProjectDay: 5 } }, costUsd: 0.2 });

    // Act
    const over = decideNext(run, tasks, { day: '2026-11-27', usd: 5.5 });
    const under = decideNext(run, tasks, { day: '2026-11-27', usd: 4.5 });

    // Assess
    expect(over.action).toBe('abort');
    expect(over.reason).toContain(
      'the project spent $5.50 on 2026-11-27 of $5.00 a day (limits.maxCostUsdPerProjectDay)',
    );
    expect(under.action).toBe('continue');
  });

  it('lets a run whose stories all pass complete, budget or not', () => {
    const run = makeRun({ config: { limits: { maxCostUsd: 1 } }, costUsd: 2 });
    const done = tasks.map((task) => ({ ...task, status: 'complete' as const }));
    expect(decideNext(run, done).action).toBe('complete');
  });
});

describe('Schema: RunConfigSchema (costs)', () => {
  it('takes budgets and a dated price override', () => {
    const config = RunConfigSchema.parse({
      limits: { maxCostUsd: 2.5, maxCostUsdPerProjectDay: 20 },
      pricing: {
        asOf: '2026-12-01',
        models: { 'claude-sonnet-4-6': { inputPerMTok: 3, outputPerMTok: 15 } },
      },
    });
    expect(config.limits).toMatchObject({ maxCostUsd: 2.5, maxCostUsdPerProjectDay: 20 });
    expect(config.pricing?.asOf).toBe('2026-12-01');
  });

  it('refuses a budget of zero, an undated or empty override and unknown price fields, by path', () => {
    // Act
    const result = RunConfigSchema.safeParse({
      limits: { maxCostUsd: 0 },
      pricing: { models: {}, currency: 'EUR' },
    });
    const typo = RunConfigSchema.safeParse({
      pricing: { asOf: '2026-12-01', models: { x: { inputPerMTok: 1, outputPrice: 2 } } },
    });

    // Assess
    const paths = (result.error?.issues ?? []).map((issue) => issue.path.join('.'));
    expect(paths).toEqual(
      expect.arrayContaining(['limits.maxCostUsd', 'pricing.asOf', 'pricing.models', 'pricing']),
    );
    expect(typo.error?.issues.map((issue) => issue.path.join('.'))).toEqual(
      expect.arrayContaining(['pricing.models.x.outputPerMTok', 'pricing.models.x']),
    );
  });
});

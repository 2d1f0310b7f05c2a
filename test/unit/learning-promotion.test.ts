import { describe, expect, it } from 'vitest';
import { promoteHints } from '../../lambdas/core/learning/promotion.js';
import type { RunHint } from '../../lambdas/core/schemas/learning.js';
import { makeIteration } from '../support/records.js';

const ISSUE = { class: 'tests', signature: 'AssertionError: expected <name> to be <name>' };
const NOW = '2026-11-27T12:00:00.000Z';

function hint(iteration: number, overrides: Partial<RunHint> = {}): RunHint {
  return {
    runId: 'run-1',
    hintId: `h${iteration}`,
    iteration,
    taskId: `US-00${iteration}`,
    category: 'feature',
    issue: ISSUE,
    scopePaths: [`src/m${iteration}.js`],
    sourceIterations: [iteration - 1, iteration],
    lesson: 'Start every module with "use strict"',
    text: 'Resolved …',
    createdAt: `2026-11-27T10:0${iteration}:00.000Z`,
    ...overrides,
  };
}

/** An iteration that was given `hintIds` and ended `outcome`. */
function given(iteration: number, hintIds: string[], outcome: 'passed' | 'gates_failed') {
  return makeIteration({
    iteration,
    status: 'recorded',
    outcome,
    learning: {
      category: 'feature',
      control: false,
      injected: hintIds.map((id) => ({ kind: 'hint', id })),
    },
  });
}

const input = { projectId: 'shop', existing: [], promoteAt: 2, now: NOW };

describe('promoteHints', () => {
  it('leaves a group seen once alone', () => {
    expect(promoteHints({ ...input, hints: [hint(2)], iterations: [] })).toEqual({
      create: [],
      update: [],
    });
  });

  it('promotes a group resolved twice in one place into one active rule', () => {
    const { create } = promoteHints({ ...input, hints: [hint(2), hint(4)], iterations: [] });
    expect(create).toHaveLength(1);
    expect(create[0]).toMatchObject({
      projectId: 'shop',
      category: 'feature',
      scopePattern: 'src/**',
      issue: ISSUE,
      sourceHints: ['run-1/h2', 'run-1/h4'],
      promotionCount: 1,
      firstSeen: '2026-11-27T10:02:00.000Z',
      lastSeen: NOW,
      status: 'active',
      version: 1,
    });
    expect(create[0]?.constraint).toBe(
      'Start every module with "use strict" (learned from "tests: AssertionError: expected <name> to be <name>" in src/**)',
    );
  });

  it('counts a hint followed by a passing iteration as seen again, but not one that failed', () => {
    const confirmed = promoteHints({
      ...input,
      hints: [hint(2)],
      iterations: [given(3, ['h2'], 'passed')],
    });
    expect(confirmed.create).toHaveLength(1);
    const refuted = promoteHints({
      ...input,
      hints: [hint(2)],
      iterations: [given(3, ['h2'], 'gates_failed')],
    });
    expect(refuted.create).toHaveLength(0);
  });

  it('keeps different places, categories and issues apart', () => {
    const hints = [
      hint(2),
      hint(4, { scopePaths: ['lib/x.js'] }),
      hint(6, { category: 'docs' }),
      hint(8, { issue: { class: 'lint', signature: 'no-var' } }),
    ];
    expect(promoteHints({ ...input, hints, iterations: [] }).create).toHaveLength(0);
  });

  it('promotes a stored rule once more, keeping a deprecated one deprecated, and repeats as a no-op', () => {
    const [rule] = promoteHints({ ...input, hints: [hint(2), hint(4)], iterations: [] }).create;
    const deprecated = { ...rule!, status: 'deprecated' as const, version: 3 };
    const later = [hint(2, { runId: 'run-2' }), hint(4, { runId: 'run-2' })];
    const { update } = promoteHints({
      ...input,
      existing: [deprecated],
      hints: later,
      iterations: [],
    });
    expect(update).toEqual([
      {
        expectedVersion: 3,
        rule: expect.objectContaining({
          promotionCount: 2,
          status: 'deprecated',
          sourceHints: ['run-1/h2', 'run-1/h4', 'run-2/h2', 'run-2/h4'],
        }),
      },
    ]);
    const again = promoteHints({
      ...input,
      existing: [update[0]!.rule],
      hints: later,
      iterations: [],
    });
    expect(again).toEqual({ create: [], update: [] });
  });
});

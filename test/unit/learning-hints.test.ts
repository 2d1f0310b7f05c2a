import { describe, expect, it } from 'vitest';
import { hintFromPass, relevantHints } from '../../lambdas/core/learning/hints.js';
import { issueKeyOf, problemSignature } from '../../lambdas/core/learning/issue-key.js';
import { makeGate, makeIteration } from '../support/records.js';

const TSC = "src/cart.ts(12,7): error TS2304: Cannot find name 'total'.";
const story = { title: 'Add a cart total', description: 'As a shopper I want to see the total.' };

function failed(iteration: number, outputTail = TSC) {
  return makeIteration({
    iteration,
    status: 'recorded',
    outcome: 'gates_failed',
    attempt: iteration,
    gates: [makeGate({ name: 'typecheck', outputTail })],
  });
}

function passed(iteration: number, overrides: Parameters<typeof makeIteration>[0] = {}) {
  return makeIteration({
    iteration,
    status: 'recorded',
    outcome: 'passed',
    attempt: iteration,
    filesChanged: ['src/cart.ts', 'src/cart.test.ts'],
    agentReport: { summary: 'Declared total', learnings: ['Declare a variable before use'] },
    ...overrides,
  });
}

describe('issue keys', () => {
  it('are the same for the same mistake in another file and on another line', () => {
    const here = issueKeyOf(failed(1));
    const there = issueKeyOf(
      failed(2, "lib/orders.ts(40,3): error TS2304: Cannot find name 'count'."),
    );
    expect(here).toEqual({
      class: 'typecheck',
      signature: '<file>: error TS2304: Cannot find name <name>.',
    });
    expect(there).toEqual(here);
  });

  it('are none for a pass, a cancel or an unrecorded iteration', () => {
    expect(issueKeyOf(passed(1))).toBeUndefined();
    expect(issueKeyOf({ outcome: 'cancelled', gates: [] })).toBeUndefined();
    expect(issueKeyOf({ gates: [] })).toBeUndefined();
  });
});

describe('hintFromPass', () => {
  it('records the issue, the files, the iterations and the lesson of a pass after a failure', () => {
    const hint = hintFromPass({
      runId: 'run-1',
      story,
      taskIterations: [failed(3), passed(4)],
      passed: passed(4),
      now: '2026-11-27T10:00:00.000Z',
    });
    expect(hint).toMatchObject({
      hintId: 'h4',
      category: 'feature',
      issue: { class: 'typecheck' },
      scopePaths: ['src/cart.ts', 'src/cart.test.ts'],
      sourceIterations: [3, 4],
      lesson: 'Declare a variable before use',
    });
    expect(hint?.text).toBe(
      'Resolved typecheck: <file>: error TS2304: Cannot find name <name>. in src/cart.ts, src/cart.test.ts - Declare a variable before use',
    );
  });

  it('uses the summary when the agent listed no learnings, and counts files beyond three', () => {
    const pass = passed(2, {
      filesChanged: ['a.ts', 'b.ts', 'c.ts', 'd.ts'],
      agentReport: { summary: 'Fixed the import', learnings: [] },
    });
    const hint = hintFromPass({
      runId: 'r',
      story,
      taskIterations: [failed(1), pass],
      passed: pass,
      now: '2026-11-27T10:00:00.000Z',
    });
    expect(hint?.text).toMatch(/in a\.ts, b\.ts, c\.ts \(\+1 more\) - Fixed the import$/);
  });

  it('is none for a first-time pass, or for failures before an earlier pass', () => {
    const first = passed(1);
    expect(
      hintFromPass({
        runId: 'r',
        story,
        taskIterations: [first],
        passed: first,
        now: '2026-11-27T10:00:00.000Z',
      }),
    ).toBeUndefined();
    const again = passed(3);
    expect(
      hintFromPass({
        runId: 'r',
        story,
        taskIterations: [failed(1), passed(2), again],
        passed: again,
        now: '2026-11-27T10:00:00.000Z',
      }),
    ).toBeUndefined();
  });
});

describe('relevantHints', () => {
  const hint = (iteration: number, category: 'feature' | 'docs', paths: string[]) =>
    hintFromPass({
      runId: 'r',
      story: category === 'docs' ? { title: 'Update the README', description: '' } : story,
      taskIterations: [failed(iteration - 1), passed(iteration, { filesChanged: paths })],
      passed: passed(iteration, { filesChanged: paths }),
      now: '2026-11-27T10:00:00.000Z',
    })!;

  it('keeps the same category and place, newest first, at most max', () => {
    const hints = [
      hint(2, 'feature', ['src/a.ts']),
      hint(4, 'docs', ['README.md']),
      hint(6, 'feature', ['lib/b.ts']),
      hint(8, 'feature', ['src/c.ts']),
    ];
    expect(
      relevantHints(hints, { category: 'feature', scopePaths: ['src/x.ts'] }, 5).map(
        (h) => h.hintId,
      ),
    ).toEqual(['h8', 'h2']);
    expect(
      relevantHints(hints, { category: 'feature', scopePaths: [] }, 2).map((h) => h.hintId),
    ).toEqual(['h8', 'h6']);
  });
});

describe('problemSignature', () => {
  it("reads a test runner's assertion line rather than its per-file tally", () => {
    const vitest = [
      ' ❯ src/cart.test.ts (3 tests | 1 failed) 12ms',
      '   × Cart > removes an item',
      "AssertionError: expected [ 'a' ] to deeply equal []",
    ].join('\n');
    expect(problemSignature(vitest)).toBe('AssertionError: expected [ <name> ] to deeply equal []');
    expect(problemSignature("src/a.ts(3,7): error TS2304: Cannot find name 'x'.")).toBe(
      '<file>: error TS2304: Cannot find name <name>.',
    );
    expect(problemSignature('')).toBeUndefined();
  });
});

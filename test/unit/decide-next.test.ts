import { describe, expect, it } from 'vitest';
import type { z } from 'zod';
import type {
  StagnationAction,
  StagnationLevel,
} from '../../lambdas/core/schemas/control-decisions.js';
import type { RunControlStateSchema } from '../../lambdas/core/schemas/control.js';
import type { Verdict } from '../../lambdas/core/schemas/control-decisions.js';
import { decideNext, nextTask } from '../../lambdas/core/loop/decide-next.js';
import { makeRun, makeTask } from '../support/records.js';

const open = makeTask({ taskId: 'US-002', priority: 2 });
const done = makeTask({ taskId: 'US-001', priority: 1, status: 'complete' });
const limits = { maxIterations: 5, iterationsPerSegment: 3, maxConsecutiveFailures: 2 };

describe('Function: decideNext', () => {
  it('continues while stories are open and no limit is reached', () => {
    // Prepare
    const run = makeRun({ config: { limits }, iterationsStarted: 1 });

    // Act
    const next = decideNext(run, [done, open]);

    // Assess
    expect(next).toEqual({ action: 'continue', reason: '1 of 2 stories pass' });
  });

  it('completes only when every task passed its gates', () => {
    const run = makeRun({ config: { limits }, iterationsStarted: 5, lastRecordedIteration: 5 });
    expect(decideNext(run, [done, { ...open, status: 'complete' }]).action).toBe('complete');
    expect(decideNext(run, [done, { ...open, status: 'in_progress' }]).action).toBe(
      'max_iterations',
    );
  });

  it('says that nothing was verified when a run with no gates completes', () => {
    // Prepare
    const finished = [done, { ...open, status: 'complete' as const }];
    const gated = makeRun({ config: { gates: [{ name: 'test', command: 'npm test' }] } });
    const ungated = makeRun({ config: { gates: [] } });

    // Act
    const reasons = [decideNext(gated, finished).reason, decideNext(ungated, finished).reason];

    // Assess
    expect(reasons).toEqual([
      'all 2 stories pass their gates',
      'all 2 stories done; no gates: nothing was verified',
    ]);
  });

  it('puts a cancel request before everything else', () => {
    const run = makeRun({ config: { limits }, cancelRequested: true });
    expect(decideNext(run, [done]).action).toBe('cancel');
  });

  it('aborts on a missing repository and pauses on a dirty tree', () => {
    const failure = { iteration: 1, summary: 'x', detail: '' };
    const missing = makeRun({ lastFailure: { ...failure, outcome: 'workspace_missing' } });
    const dirty = makeRun({ lastFailure: { ...failure, outcome: 'workspace_dirty' } });
    expect(decideNext(missing, [open]).action).toBe('abort');
    expect(decideNext(dirty, [open])).toMatchObject({ action: 'pause' });
    expect(decideNext(dirty, [open]).reason).toContain('uncommitted changes');
  });

  it.each([
    [1, 'continue'],
    [2, 'abort'],
    [3, 'abort'],
  ] as const)('with %i consecutive failures (limit 2) decides %s', (failures, action) => {
    const run = makeRun({ config: { limits }, consecutiveFailures: failures });
    expect(decideNext(run, [open]).action).toBe(action);
  });

  it('counts the iterations recorded, not a number handed out that has not run yet', () => {
    // Prepare: iteration 5 of 5 is planned (its number went out when 4 was recorded)
    const run = makeRun({
      config: { limits: { ...limits, iterationsPerSegment: 10 } },
      iterationsStarted: 5,
      lastRecordedIteration: 4,
    });

    // Act
    const next = decideNext(run, [open]);

    // Assess
    expect(next.action).toBe('continue');
  });

  it.each([
    [4, 'new_segment'],
    [5, 'max_iterations'],
  ] as const)('at %i of 5 iterations decides %s', (started, action) => {
    const run = makeRun({
      config: { limits },
      iterationsStarted: started,
      lastRecordedIteration: started,
      segmentStartIteration: 1,
    });
    expect(decideNext(run, [open]).action).toBe(action);
  });

  it.each([
    [2, 'continue'],
    [3, 'new_segment'],
  ] as const)('after %i iterations in a segment of 3 decides %s', (inSegment, action) => {
    const run = makeRun({
      config: { limits: { ...limits, maxIterations: 50 } },
      segment: 2,
      segmentStartIteration: 10,
      iterationsStarted: 10 + inSegment,
      lastRecordedIteration: 10 + inSegment,
    });
    expect(decideNext(run, [open]).action).toBe(action);
  });
});

describe('Function: decideNext with loop control', () => {
  type ControlInput = z.input<typeof RunControlStateSchema>;
  const controlLimits = { maxIterations: 50, iterationsPerSegment: 20, maxConsecutiveFailures: 3 };
  const SUMMARY = '15 iterations in a row without progress, critical: aborting; patterns: E x3';
  const ACTIONS: Record<StagnationLevel, StagnationAction> = {
    none: 'none',
    warning: 'switch_mode',
    elevated: 'consult_supervisor',
    critical: 'abort',
  };
  const stagnation = (
    level: StagnationLevel,
    count: number,
    iteration = 8,
  ): NonNullable<ControlInput['stagnation']> => ({
    level,
    count,
    threshold: 5,
    action: ACTIONS[level],
    diagnostics: { patterns: [], summary: SUMMARY },
    iteration,
  });
  const verdict = (which: Verdict, iteration = 8): NonNullable<ControlInput['verdict']> => ({
    verdict: which,
    rule: 'healthy',
    reason: `because ${which}`,
    ...(which === 'SWITCH_MODE' ? { switchTo: 'debugger' as const } : {}),
    iteration,
  });
  const controlled = (control: ControlInput, overrides: Parameters<typeof makeRun>[0] = {}) =>
    makeRun({
      config: { limits: controlLimits },
      iterationsStarted: 8,
      lastRecordedIteration: 8,
      segmentStartIteration: 0,
      control,
      ...overrides,
    });

  it.each([
    ['none', 0, 'continue'],
    ['warning', 5, 'continue'],
    ['elevated', 14, 'continue'],
    ['critical', 15, 'abort'],
  ] as const)('at stagnation %s (%i iterations) decides %s', (level, count, action) => {
    // Prepare
    const run = controlled({ stagnation: stagnation(level, count) });

    // Act
    const next = decideNext(run, [done, open]);

    // Assess
    expect(next.action).toBe(action);
  });

  it('names the count and the diagnostics when stagnation aborts', () => {
    // Act
    const next = decideNext(controlled({ stagnation: stagnation('critical', 15) }), [done, open]);

    // Assess
    expect(next.reason).toBe(
      `stagnation critical: 15 iterations without progress (${SUMMARY}); 1 of 2 stories pass`,
    );
  });

  it.each([
    ['ABORT', 'abort'],
    ['PAUSE', 'pause'],
    ['SWITCH_MODE', 'continue'],
    ['RESET', 'continue'],
    ['PROCEED', 'continue'],
  ] as const)('on a supervisor %s decides %s', (which, action) => {
    // Prepare
    const run = controlled({ verdict: verdict(which) });

    // Act
    const next = decideNext(run, [done, open]);

    // Assess
    expect(next.action).toBe(action);
    if (action !== 'continue')
      expect(next.reason).toContain(`supervisor: ${which} (because ${which})`);
  });

  it.each([
    [5, 'continue'],
    [6, 'continue'],
    [7, 'abort'],
  ] as const)(
    'a decision after iteration %i, with the segment starting at 6, decides %s',
    (iteration, action) => {
      // Prepare
      const run = controlled(
        { stagnation: stagnation('critical', 15, iteration), verdict: verdict('ABORT', iteration) },
        { segmentStartIteration: 6 },
      );

      // Act
      const next = decideNext(run, [done, open]);

      // Assess
      expect(next.action).toBe(action);
    },
  );

  it.each([
    [6, 'continue'],
    [7, 'pause'],
  ] as const)(
    'a PAUSE after iteration %i, with the segment starting at 6, decides %s',
    (iteration, action) => {
      const run = controlled(
        { verdict: verdict('PAUSE', iteration) },
        { segmentStartIteration: 6 },
      );
      expect(decideNext(run, [done, open]).action).toBe(action);
    },
  );

  it('puts a cancel request and completion before loop control', () => {
    // Prepare
    const control = { stagnation: stagnation('critical', 15), verdict: verdict('PAUSE') };
    const cancelled = controlled(control, { cancelRequested: true });
    const running = controlled(control);

    // Act + Assess
    expect(decideNext(cancelled, [done, open]).action).toBe('cancel');
    expect(decideNext(running, [done, { ...open, status: 'complete' }]).action).toBe('complete');
  });

  it('puts a stopping outcome before loop control', () => {
    // Prepare
    const run = controlled(
      { verdict: verdict('ABORT') },
      { lastFailure: { iteration: 8, outcome: 'workspace_dirty', summary: 'dirty', detail: '' } },
    );

    // Act + Assess
    expect(decideNext(run, [done, open]).action).toBe('pause');
  });

  it('puts stagnation before the supervisor', () => {
    // Prepare
    const run = controlled({ stagnation: stagnation('critical', 15), verdict: verdict('PAUSE') });

    // Act
    const next = decideNext(run, [done, open]);

    // Assess
    expect(next.action).toBe('abort');
    expect(next.reason).toMatch(/^stagnation critical/);
  });

  it('puts loop control before the consecutive-failure limit', () => {
    // Prepare: 3 failures reach the limit of 3
    const paused = controlled({ verdict: verdict('PAUSE') }, { consecutiveFailures: 3 });
    const stagnant = controlled(
      { stagnation: stagnation('critical', 15) },
      { consecutiveFailures: 3 },
    );
    const proceeding = controlled({ verdict: verdict('PROCEED') }, { consecutiveFailures: 3 });

    // Act + Assess
    expect(decideNext(paused, [done, open])).toMatchObject({ action: 'pause' });
    expect(decideNext(stagnant, [done, open]).reason).toMatch(/^stagnation critical/);
    expect(decideNext(proceeding, [done, open]).reason).toContain('3 iterations in a row');
  });

  it('continues without any loop-control state', () => {
    expect(decideNext(controlled({}), [done, open]).action).toBe('continue');
  });
});

describe('Function: nextTask', () => {
  it('takes the lowest priority number that is not complete, ties in prd.json order', () => {
    const tasks = [
      makeTask({ taskId: 'B', priority: 3 }),
      makeTask({ taskId: 'A', priority: 1, status: 'complete' }),
      makeTask({ taskId: 'C', priority: 2, status: 'in_progress' }),
    ];
    expect(nextTask(tasks)?.taskId).toBe('C');
    const tied = [
      makeTask({ taskId: 'Z', priority: 1, order: 0 }),
      makeTask({ taskId: 'A', priority: 1, order: 1 }),
    ];
    expect(nextTask(tied)?.taskId).toBe('Z');
    expect(
      nextTask(tasks.map((task) => ({ ...task, status: 'complete' as const }))),
    ).toBeUndefined();
  });

  it.each([
    [7, 'A'],
    [8, 'B'],
    [9, 'B'],
  ])(
    'skips a task in progress for %i iterations of its stint (budget 8) while another waits: %s',
    (spent, picked) => {
      const tasks = [
        makeTask({
          taskId: 'A',
          priority: 1,
          status: 'in_progress',
          attempts: 10 + spent,
          stintStartAttempts: 10,
        }),
        makeTask({ taskId: 'B', priority: 2 }),
      ];
      expect(nextTask(tasks, { maxTaskIterations: 8 })?.taskId).toBe(picked);
    },
  );

  it('keeps working on a task over its budget when nothing else but blocked tasks is open', () => {
    const tasks = [
      makeTask({ taskId: 'A', priority: 1, status: 'in_progress', attempts: 9 }),
      makeTask({
        taskId: 'B',
        priority: 2,
        status: 'blocked',
        block: { reason: '3 attempts failed', at: '2025-01-01T00:00:00Z' },
      }),
    ];
    expect(nextTask(tasks, { maxTaskIterations: 8 })?.taskId).toBe('A');
  });
});

describe('Blocked tasks', () => {
  const blocked = (taskId: string, priority: number, blockedAt: string, timesBlocked = 1) =>
    makeTask({
      taskId,
      priority,
      status: 'blocked',
      block: { reason: '3 attempts failed', at: blockedAt },
      timesBlocked,
      attempts: 3,
    });

  it('skips a blocked task while another story is open, in priority order', () => {
    const tasks = [
      blocked('US-001', 1, '2025-01-15T10:00:00.000Z'),
      makeTask({ taskId: 'US-003', priority: 3 }),
      makeTask({ taskId: 'US-002', priority: 2 }),
    ];
    expect(nextTask(tasks)?.taskId).toBe('US-002');
  });

  it('takes the task blocked longest ago when every open one is blocked', () => {
    const tasks = [
      blocked('US-001', 1, '2025-01-15T11:00:00.000Z'),
      blocked('US-002', 2, '2025-01-15T10:00:00.000Z'),
    ];
    expect(nextTask(tasks)?.taskId).toBe('US-002');
  });

  it.each([
    [1, 'continue'],
    [2, 'abort'],
  ])('with every open story blocked %i times (limit 2): %s', (times, action) => {
    // Prepare
    const tasks = [
      blocked('US-001', 1, '2025-01-15T10:00:00.000Z', times),
      blocked('US-002', 2, '2025-01-15T11:00:00.000Z', times),
    ];

    // Act
    const next = decideNext(makeRun({ config: { limits } }), tasks);

    // Assess
    expect(next.action).toBe(action);
    if (action === 'abort') expect(next.reason).toContain('every open story is blocked');
  });

  it('keeps the abort reason short however many stories are blocked and however long their reasons', () => {
    // Prepare: twelve blocked stories, each blocked with a whole gate log as its reason.
    const log = `FAIL src/app.test.ts\n${'  expected 1 to be 2\n'.repeat(200)}`;
    const tasks = Array.from({ length: 12 }, (_, index) => ({
      ...blocked(
        `US-${String(index + 1).padStart(3, '0')}`,
        index + 1,
        '2025-01-15T10:00:00.000Z',
        2,
      ),
      block: { reason: log, at: '2025-01-15T10:00:00.000Z' },
    }));

    // Act
    const next = decideNext(makeRun({ config: { limits } }), tasks);

    // Assess
    expect(next.action).toBe('abort');
    expect(next.reason).toMatch(
      /US-001: FAIL src\/app\.test\.ts.*…; US-002: .*; US-003: .* and 9 more\)/s,
    );
    expect(next.reason.length).toBeLessThan(800);
  });
});

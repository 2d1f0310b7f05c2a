import { describe, expect, it } from 'vitest';
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
    const run = makeRun({ config: { limits }, iterationsStarted: 5 });
    expect(decideNext(run, [done, { ...open, status: 'complete' }]).action).toBe('complete');
    expect(decideNext(run, [done, { ...open, status: 'in_progress' }]).action).toBe(
      'max_iterations',
    );
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

  it.each([
    [4, 'new_segment'],
    [5, 'max_iterations'],
  ] as const)('at %i of 5 iterations decides %s', (started, action) => {
    const run = makeRun({
      config: { limits },
      iterationsStarted: started,
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
    });
    expect(decideNext(run, [open]).action).toBe(action);
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
});

import { describe, expect, it } from 'vitest';
import { isRunRef } from '../../agent/runner/run-refs.js';
import { InvalidInputError } from '../../lambdas/core/errors.js';
import { selectRunsToPrune } from '../../lambdas/core/runs/prune-runs.js';
import { parseDuration } from '../../lambdas/core/shared/duration.js';
import type { RunRecord, RunStatus } from '../../lambdas/core/schemas/run.js';
import { makeRun } from '../support/records.js';

const NOW = Date.parse('2026-03-01T00:00:00.000Z');
const daysAgo = (days: number) => new Date(NOW - days * 86_400_000).toISOString();

function stoppedRun(runId: string, status: RunStatus, days: number): RunRecord {
  const at = daysAgo(days);
  return makeRun({
    runId,
    status,
    createdAt: daysAgo(days + 1),
    updatedAt: at,
    ...(status === 'paused' || status === 'running' ? {} : { endedAt: at }),
  });
}

describe('Function: parseDuration', () => {
  it.each([
    ['30d', 30 * 86_400_000],
    ['12h', 12 * 3_600_000],
    ['2w', 14 * 86_400_000],
    ['90m', 90 * 60_000],
    ['0s', 0],
  ])('reads %s', (text, ms) => {
    expect(parseDuration(text, '--older-than')).toBe(ms);
  });

  it.each(['30', 'd', '-1d', '1.5h', '30 days', '3y', ''])(
    'refuses %j, naming the option',
    (text) => {
      expect(() => parseDuration(text, '--older-than')).toThrow(InvalidInputError);
      expect(() => parseDuration(text, '--older-than')).toThrow(/--older-than/);
    },
  );
});

describe('Function: selectRunsToPrune', () => {
  const runs = [
    stoppedRun('completed-old', 'completed', 40),
    stoppedRun('failed-older', 'failed', 50),
    stoppedRun('cancelled-old', 'cancelled', 31),
    stoppedRun('aborted-new', 'aborted', 2),
    stoppedRun('paused-old', 'paused', 60),
    stoppedRun('running-old', 'running', 90),
  ];
  const cutoff = new Date(NOW - 30 * 86_400_000);

  it('chooses ended runs that stopped before the cutoff, oldest first, and counts the rest', () => {
    // Act
    const selection = selectRunsToPrune(runs, { cutoff, includePaused: false });

    // Assess
    expect(selection.prune.map((run) => run.runId)).toEqual([
      'failed-older',
      'completed-old',
      'cancelled-old',
    ]);
    expect(selection.kept).toEqual({ newer: 1, running: 1, paused: 1 });
  });

  it('takes old paused runs only when asked, and never a running one', () => {
    // Act
    const selection = selectRunsToPrune(runs, { cutoff, includePaused: true });

    // Assess
    expect(selection.prune.map((run) => run.runId)).toContain('paused-old');
    expect(selection.prune.map((run) => run.runId)).not.toContain('running-old');
    expect(selection.kept).toEqual({ newer: 1, running: 1, paused: 0 });
  });

  it('measures a run by its end, not its start', () => {
    // Prepare: created 100 days ago, ended yesterday.
    const long = makeRun({
      runId: 'long',
      status: 'completed',
      createdAt: daysAgo(100),
      updatedAt: daysAgo(1),
      endedAt: daysAgo(1),
    });

    // Act
    const selection = selectRunsToPrune([long], { cutoff, includePaused: false });

    // Assess
    expect(selection.prune).toEqual([]);
  });
});

describe('Function: isRunRef', () => {
  it('matches every kind of ref the run left, and no other run’s', () => {
    expect(isRunRef('refs/ralph/evidence/r-1/2', 'r-1')).toBe(true);
    expect(isRunRef('refs/ralph/checkpoint/r-1/3', 'r-1')).toBe(true);
    expect(isRunRef('refs/ralph/moved/r-1/2/feature/x', 'r-1')).toBe(true);
    expect(isRunRef('refs/ralph/evidence/r-10/2', 'r-1')).toBe(false);
    expect(isRunRef('refs/ralph/r-1', 'r-1')).toBe(false);
    expect(isRunRef('refs/tags/ralph/checkpoint/r-1/3', 'r-1')).toBe(false);
  });
});

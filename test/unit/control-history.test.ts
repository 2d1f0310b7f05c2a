import { describe, expect, it } from 'vitest';
import {
  errorTallies,
  madeProgress,
  modeReturns,
  passRate,
  recent,
  trailingCount,
} from '../../lambdas/core/control/facts/history.js';
import { IterationSummarySchema } from '../../lambdas/core/schemas/control-history.js';
import { historyFactory } from '../support/control-history.js';

const { entry, history } = historyFactory();

describe('Schema: IterationSummarySchema', () => {
  it('defaults the uncommitted files to none', () => {
    expect(entry().filesTouchedUncommitted).toEqual([]);
  });

  it.each([
    [{ testsPassed: 6, testsFailed: 4, testsTotal: 10 }, true],
    [{ testsPassed: 6, testsFailed: 5, testsTotal: 10 }, false],
    [{ testsPassed: 11, testsTotal: 10 }, false],
    [{ testsPassed: 6, testsFailed: 3, testsTotal: 10 }, true],
    [{ testsPassed: 6, testsFailed: 5 }, true],
  ])('checks test tallies against the total: %o valid %s', (tallies, valid) => {
    const result = IterationSummarySchema.safeParse({ ...entry(), ...tallies });
    expect(result.success).toBe(valid);
  });

  it.each([
    ['an unknown mode', { mode: 'builder' }],
    ['an unknown outcome', { outcome: 'great' }],
    ['an empty task id', { taskId: '' }],
    ['a date without a zone', { endedAt: '2025-01-01T00:00:00' }],
    ['a negative warning count', { warnings: -1 }],
  ])('rejects %s', (_name, overrides) => {
    expect(IterationSummarySchema.safeParse({ ...entry(), ...overrides }).success).toBe(false);
  });
});

describe('Function: passRate', () => {
  it.each([
    [{ testsPassed: 9, testsTotal: 10 }, 0.9],
    [{ testsFailed: 1, testsTotal: 4 }, 0.75],
    [{ testsPassed: 0, testsTotal: 3 }, 0],
    [{ testsPassed: 0, testsTotal: 0 }, undefined],
    [{ testsPassed: 5 }, undefined],
    [{ testsTotal: 5 }, undefined],
  ])('of %o is %s', (tallies, rate) => {
    expect(passRate(tallies)).toBe(rate);
  });
});

describe('Function: trailingCount', () => {
  it('counts back from the newest entry until one does not hold', () => {
    // Prepare
    const entries = history({ committed: true }, {}, { committed: true }, {}, {});

    // Act + Assess
    expect(trailingCount(entries, (item) => !item.committed)).toBe(2);
    expect(trailingCount(entries, () => true)).toBe(5);
    expect(trailingCount([], () => true)).toBe(0);
  });
});

describe('Function: recent', () => {
  it('keeps the latest entries, all of a shorter history', () => {
    // Prepare
    const entries = history({}, {}, {});

    // Act + Assess
    expect(recent(entries, 2).map((item) => item.iteration)).toEqual([2, 3]);
    expect(recent(entries, 5)).toHaveLength(3);
  });
});

describe('Function: madeProgress', () => {
  it.each([
    [false, false, false],
    [true, false, true],
    [false, true, true],
    [true, true, true],
  ])('committed %s, meaningful change %s: %s', (committed, meaningfulChange, progress) => {
    expect(madeProgress(entry({ committed, meaningfulChange }))).toBe(progress);
  });
});

describe('Function: modeReturns', () => {
  it('counts nothing for a forward pipeline or a mode kept', () => {
    // Prepare
    const entries = history(
      { mode: 'planner' },
      { mode: 'implementer' },
      { mode: 'implementer' },
      { mode: 'tester' },
      { mode: 'reviewer' },
    );

    // Act + Assess
    expect(modeReturns(entries)).toBe(0);
  });

  it.each([
    [['implementer', 'debugger', 'implementer'], 1],
    [['implementer', 'debugger', 'implementer', 'debugger'], 2],
    [['implementer', 'debugger', 'debugger', 'implementer', 'implementer', 'debugger'], 2],
    [['planner', 'implementer', 'tester', 'implementer', 'tester', 'reviewer'], 2],
  ] as const)('counts returns to a mode used before in %j: %d', (modes, returns) => {
    expect(modeReturns(history(...modes.map((mode) => ({ mode }))))).toBe(returns);
  });

  it('starts afresh when the task changes', () => {
    // Prepare
    const entries = history(
      { taskId: 'US-1', mode: 'implementer' },
      { taskId: 'US-1', mode: 'tester' },
      { taskId: 'US-2', mode: 'implementer' },
      { taskId: 'US-2', mode: 'tester' },
      { taskId: 'US-2', mode: 'implementer' },
    );

    // Act + Assess
    expect(modeReturns(entries)).toBe(1);
  });
});

describe('Function: errorTallies', () => {
  it('counts each signature, most frequent first, ties most recent first', () => {
    // Prepare
    const entries = history(
      { errorSignature: 'A' },
      { errorSignature: 'B' },
      {},
      { errorSignature: 'C' },
      { errorSignature: 'A' },
      { errorSignature: 'B' },
    );

    // Act
    const tallies = errorTallies(entries);

    // Assess
    expect(tallies).toEqual([
      { signature: 'B', occurrences: 2, lastIteration: 6 },
      { signature: 'A', occurrences: 2, lastIteration: 5 },
      { signature: 'C', occurrences: 1, lastIteration: 4 },
    ]);
  });
});

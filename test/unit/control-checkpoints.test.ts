import { describe, expect, it } from 'vitest';
import {
  checkpointsToPrune,
  checkpointTag,
  compareQuality,
  isWorseThan,
  parseCheckpointTag,
  shouldCheckpoint,
  shouldRollback,
} from '../../lambdas/core/control/checkpoints/policy.js';
import { QualityMetricsSchema, type QualityMetrics } from '../../lambdas/core/schemas/control.js';
import { InvalidInputError } from '../../lambdas/core/errors.js';

const q = (overrides: Partial<QualityMetrics> = {}): QualityMetrics => ({
  testsPassed: 95,
  testsTotal: 100,
  passRate: 0.95,
  warnings: 5,
  storiesComplete: 3,
  ...overrides,
});

describe('Schema: QualityMetricsSchema', () => {
  it('refuses more passing tests than tests and a rate outside 0–1', () => {
    expect(QualityMetricsSchema.safeParse(q()).success).toBe(true);
    expect(QualityMetricsSchema.safeParse(q({ testsPassed: 101 })).success).toBe(false);
    expect(QualityMetricsSchema.safeParse(q({ passRate: 1.01 })).success).toBe(false);
  });
});

describe('Function: checkpointTag', () => {
  it('names the run and iteration and parses back', () => {
    expect(checkpointTag('run-7f3a', 12)).toBe('ralph/checkpoint/run-7f3a/12');
    expect(parseCheckpointTag('ralph/checkpoint/run-7f3a/12')).toEqual({
      runId: 'run-7f3a',
      iteration: 12,
    });
    expect(parseCheckpointTag('ralph/checkpoint/run-7f3a/012')).toBeUndefined();
    expect(parseCheckpointTag('v1.0.0')).toBeUndefined();
  });

  it.each(['a b', 'a..b', 'a/b', '.hidden', 'x.lock', 'a:b', 'a~1', 'a@{1}', ''])(
    'refuses the run id %j',
    (runId) => {
      expect(() => checkpointTag(runId, 1)).toThrow(InvalidInputError);
    },
  );

  it('refuses a negative or fractional iteration', () => {
    expect(() => checkpointTag('run-1', -1)).toThrow(InvalidInputError);
    expect(() => checkpointTag('run-1', 1.5)).toThrow(InvalidInputError);
  });
});

describe('Function: compareQuality', () => {
  it('orders by stories, then pass rate, then tests passing, then fewer warnings', () => {
    expect(compareQuality(q({ storiesComplete: 4, passRate: 0.5 }), q())).toBe(1);
    expect(compareQuality(q({ passRate: 0.96, testsPassed: 10 }), q())).toBe(1);
    expect(compareQuality(q({ testsPassed: 96 }), q())).toBe(1);
    expect(compareQuality(q({ warnings: 6 }), q())).toBe(-1);
    expect(compareQuality(q(), q())).toBe(0);
  });

  it('ignores floating-point noise in the pass rate', () => {
    expect(compareQuality(q({ passRate: 0.1 + 0.2 }), q({ passRate: 0.3 }))).toBe(0);
  });
});

describe('Function: isWorseThan', () => {
  it.each([
    [0.76, false],
    [0.75, false],
    [0.74, true],
  ])('pass rate %f against 0.95 (drop limit 0.2): worse %s', (passRate, worse) => {
    expect(isWorseThan(q({ passRate }), q()).worse).toBe(worse);
  });

  it('treats a drop of exactly the limit as not worse despite float noise', () => {
    expect(isWorseThan(q({ passRate: 0.7 }), q({ passRate: 0.9 })).worse).toBe(false);
  });

  it.each([
    [81, false],
    [80, false],
    [79, true],
  ])(
    '%i tests passing against 100 with the same rate (20%% may be lost): worse %s',
    (testsPassed, worse) => {
      // The tests were deleted, not broken: the rate stays, the count falls.
      const before = q({ testsPassed: 100, testsTotal: 100, passRate: 1 });
      const after = q({ testsPassed, testsTotal: testsPassed, passRate: 1 });
      expect(isWorseThan(after, before).worse).toBe(worse);
    },
  );

  it('finds 19 of 95 lost (exactly 20%) not worse despite float noise', () => {
    const before = q({ testsPassed: 95, testsTotal: 95, passRate: 1 });
    expect(isWorseThan(q({ testsPassed: 76, testsTotal: 76, passRate: 1 }), before).worse).toBe(
      false,
    );
  });

  it.each([
    [14, false],
    [15, false],
    [16, true],
  ])('%i warnings against 5 (10 may be added): worse %s', (warnings, worse) => {
    expect(isWorseThan(q({ warnings }), q()).worse).toBe(worse);
  });

  it('counts any lost story by default and allows a configured loss', () => {
    expect(isWorseThan(q({ storiesComplete: 2 }), q())).toEqual({
      worse: true,
      reasons: ['stories complete 3 → 2'],
    });
    expect(isWorseThan(q({ storiesComplete: 2 }), q(), { storiesLost: 1 }).worse).toBe(false);
  });

  it('lists every way it is worse', () => {
    const verdict = isWorseThan(
      q({ passRate: 0.4, testsPassed: 40, warnings: 30, storiesComplete: 1 }),
      q(),
    );
    expect(verdict.reasons).toEqual([
      'stories complete 3 → 1',
      'pass rate 0.95 → 0.4 (more than 0.2 lower)',
      'tests passing 95 → 40 (more than 20% lost)',
      'warnings 5 → 30 (more than 10 added)',
    ]);
  });

  it('does not divide by zero when the reference had no passing tests', () => {
    expect(
      isWorseThan(q({ testsPassed: 0, passRate: 0 }), q({ testsPassed: 0, passRate: 0 })).worse,
    ).toBe(false);
  });
});

describe('Function: shouldCheckpoint', () => {
  const last = { iteration: 10, quality: q() };

  it('takes a baseline when there is no checkpoint', () => {
    expect(shouldCheckpoint({ iteration: 1, quality: q() })).toEqual({
      checkpoint: true,
      why: 'no checkpoint yet: a baseline to roll back to',
    });
  });

  it('takes one when quality improved', () => {
    expect(
      shouldCheckpoint({ iteration: 11, quality: q({ storiesComplete: 4 }), lastCheckpoint: last }),
    ).toEqual({
      checkpoint: true,
      why: 'quality improved on the checkpoint of iteration 10',
    });
  });

  it('does not count a better order with a significant regression as improvement', () => {
    // One more story, but the pass rate collapsed.
    const decision = shouldCheckpoint({
      iteration: 11,
      quality: q({ storiesComplete: 4, passRate: 0.5 }),
      lastCheckpoint: last,
    });
    expect(decision.checkpoint).toBe(false);
  });

  it.each([
    [19, false],
    [20, true],
    [21, true],
  ])('at iteration %i, 10 after the last (every 10): %s', (iteration, checkpoint) => {
    expect(shouldCheckpoint({ iteration, quality: q(), lastCheckpoint: last }).checkpoint).toBe(
      checkpoint,
    );
  });

  it('reports how far it is from the next periodic checkpoint', () => {
    expect(shouldCheckpoint({ iteration: 19, quality: q(), lastCheckpoint: last }).why).toBe(
      'quality not improved and 9 of 10 iterations since the last checkpoint',
    );
  });

  it('takes none at or before the last checkpoint, and none when disabled', () => {
    expect(
      shouldCheckpoint({ iteration: 10, quality: q({ storiesComplete: 9 }), lastCheckpoint: last })
        .checkpoint,
    ).toBe(false);
    expect(shouldCheckpoint({ iteration: 1, quality: q(), options: { enabled: false } })).toEqual({
      checkpoint: false,
      why: 'checkpoints are disabled',
    });
  });

  it('honours a configured interval', () => {
    expect(
      shouldCheckpoint({
        iteration: 13,
        quality: q(),
        lastCheckpoint: last,
        options: { autoCheckpointInterval: 3 },
      }).checkpoint,
    ).toBe(true);
  });
});

describe('Function: checkpointsToPrune', () => {
  const make = (iteration: number, quality = q()) => ({ iteration, quality });

  it('prunes nothing at or below the limit', () => {
    const list = Array.from({ length: 20 }, (_, i) => make(i + 1));
    expect(checkpointsToPrune(list)).toEqual([]);
  });

  it('prunes the oldest above the limit', () => {
    // Prepare: 22 checkpoints, equal quality: the newest of equals is the best
    const list = Array.from({ length: 22 }, (_, i) => make(i + 1));

    // Act
    const pruned = checkpointsToPrune(list);

    // Assess
    expect(pruned.map((c) => c.iteration)).toEqual([1, 2]);
  });

  it('keeps the best even when it is old', () => {
    // Prepare
    const list = [make(1), make(2, q({ storiesComplete: 9 })), make(3), make(4), make(5)];

    // Act
    const pruned = checkpointsToPrune(list, { maxCheckpoints: 3 });

    // Assess: keep 2 (best), 5 and 4 (newest)
    expect(pruned.map((c) => c.iteration)).toEqual([1, 3]);
  });
});

describe('Function: shouldRollback', () => {
  const good = { iteration: 5, quality: q() };
  const degraded = { iteration: 10, quality: q({ passRate: 0.6, testsPassed: 60 }) };

  it('restores the newest checkpoint the current state is significantly worse than', () => {
    // Act: the newest checkpoint (10) is itself degraded; 5 is the good one
    const result = shouldRollback(
      { iteration: 12, quality: q({ passRate: 0.55, testsPassed: 55 }) },
      [good, degraded],
    );

    // Assess
    expect(result?.checkpoint).toBe(good);
    expect(result?.reasons[0]).toBe('pass rate 0.95 → 0.55 (more than 0.2 lower)');
  });

  it('restores nothing when the current state is within the threshold', () => {
    expect(shouldRollback({ iteration: 12, quality: q({ passRate: 0.8 }) }, [good])).toBeNull();
    expect(
      shouldRollback({ iteration: 12, quality: q({ passRate: 0.8 }) }, [good], {
        passRateDrop: 0.1,
      })?.checkpoint,
    ).toBe(good);
  });

  it('ignores checkpoints at or after the current iteration', () => {
    expect(shouldRollback({ iteration: 5, quality: q({ passRate: 0.1 }) }, [good])).toBeNull();
  });

  it('prefers the newer of two good checkpoints', () => {
    const newer = { iteration: 8, quality: q() };
    expect(
      shouldRollback({ iteration: 12, quality: q({ storiesComplete: 1 }) }, [good, newer])
        ?.checkpoint,
    ).toBe(newer);
  });
});

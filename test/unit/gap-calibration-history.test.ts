import { describe, expect, it } from 'vitest';
import { appendCalibrationHistory } from '../../lambdas/core/gap/calibration-history.js';

const entries = (from: number, to: number) =>
  Array.from({ length: to - from + 1 }, (_, index) => ({ iteration: from + index, gap: 0.1 }));
const config = { history: { maxEntries: 50 } };

describe('Function: appendCalibrationHistory', () => {
  it('appends without changing the input', () => {
    // Prepare
    const history = entries(1, 3);

    // Act
    const next = appendCalibrationHistory(history, { iteration: 4, gap: 0.2 }, config);

    // Assess
    expect(next.map((entry) => entry.iteration)).toEqual([1, 2, 3, 4]);
    expect(history).toHaveLength(3);
  });

  it.each([
    [49, 50, [1, 2, 50]],
    [50, 50, [1, 3, 51]],
    [80, 50, [1, 33, 81]],
  ])(
    'with %i entries and a maximum of %i keeps the first and the latest',
    (count, max, [first, second, last]) => {
      // Act
      const next = appendCalibrationHistory(
        entries(1, count),
        { iteration: count + 1, gap: 0 },
        { history: { maxEntries: max } },
      );

      // Assess
      expect(next).toHaveLength(Math.min(count + 1, max));
      expect(next[0]?.iteration).toBe(first);
      expect(next[1]?.iteration).toBe(second);
      expect(next.at(-1)?.iteration).toBe(last);
    },
  );

  it('keeps the baseline and the newest with the smallest maximum', () => {
    const next = appendCalibrationHistory(
      entries(1, 5),
      { iteration: 6, gap: 0 },
      { history: { maxEntries: 2 } },
    );
    expect(next.map((entry) => entry.iteration)).toEqual([1, 6]);
  });

  it('replaces an entry for the iteration it already ends with (a retried step)', () => {
    // Act
    const next = appendCalibrationHistory(entries(1, 3), { iteration: 3, gap: 0.9 }, config);

    // Assess
    expect(next).toEqual([...entries(1, 2), { iteration: 3, gap: 0.9 }]);
  });

  it('starts a history from nothing', () => {
    expect(appendCalibrationHistory([], { iteration: 1, gap: 1 }, config)).toEqual([
      { iteration: 1, gap: 1 },
    ]);
  });
});

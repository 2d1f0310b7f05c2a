import { describe, expect, it } from 'vitest';
import { DEFAULT_EVALUATION_CONFIG } from '../../lambdas/core/schemas/evaluation-config.js';
import {
  agreesWithJudge,
  recordPatternOutcomes,
} from '../../lambdas/core/patterns/lifecycle/outcomes.js';
import type {
  CheapModeResult,
  ExpensiveModeResult,
} from '../../lambdas/core/schemas/evaluation.js';
import {
  makeCheapResult,
  makeFailedResult,
  makeJudgedResult,
  makePattern,
} from '../support/evaluation.js';

const cheap = (artefactId: string, patternsMatched: string[]): CheapModeResult =>
  makeCheapResult({ artefactId, rawScore: 2.5, patternsMatched });
const judged = (artefactId: string, gestalt: number): ExpensiveModeResult =>
  makeJudgedResult({ artefactId, gestalt });
const failed = (artefactId: string): ExpensiveModeResult =>
  makeFailedResult({ artefactId, error: 'x' });
const config = DEFAULT_EVALUATION_CONFIG;
const reliable = { iteration: 7, judgeReliable: true };

describe('Function: agreesWithJudge', () => {
  it.each([
    ['good', 4.0, true],
    ['good', 3.99, false],
    ['good', 5, true],
    ['bad', 3.99, true],
    ['bad', 4.0, false],
    ['bad', 1, true],
  ] as const)(
    'a %s pattern on a judge score of %d is correct: %s (threshold 4.0)',
    (type, score, expected) => {
      expect(agreesWithJudge(type, score, 4.0)).toBe(expected);
    },
  );

  it('treats a score within noise of the threshold as at the threshold', () => {
    expect(agreesWithJudge('good', 3.9999999999999996, 4)).toBe(true);
  });
});

describe('Function: recordPatternOutcomes', () => {
  it('counts firing, testing and correctness per artefact the judge scored', () => {
    // Prepare: good fires on a 4.5 (correct) and a 3.0 (wrong); bad fires on the 3.0 (correct)
    const patterns = [
      makePattern({ id: 'p_good' }),
      makePattern({ id: 'p_bad', type: 'bad' }),
      makePattern({ id: 'p_idle' }),
    ];
    const cheapResults = [cheap('a', ['p_good']), cheap('b', ['p_good', 'p_bad'])];

    // Act
    const updated = recordPatternOutcomes(
      patterns,
      cheapResults,
      [judged('a', 4.5), judged('b', 3.0)],
      config,
      reliable,
    );

    // Assess
    expect(
      updated.map((p) => [p.id, p.timesFired, p.timesTested, p.timesCorrect, p.lastFiredIteration]),
    ).toEqual([
      ['p_good', 2, 2, 1, 7],
      ['p_bad', 1, 1, 1, 7],
      ['p_idle', 0, 0, 0, undefined],
    ]);
    expect(updated[2]).toBe(patterns[2]);
  });

  it('adds to the counts the pattern already has', () => {
    const patterns = [
      makePattern({
        id: 'p_good',
        timesFired: 10,
        timesTested: 8,
        timesCorrect: 6,
        lastFiredIteration: 3,
      }),
    ];
    const [updated] = recordPatternOutcomes(
      patterns,
      [cheap('a', ['p_good'])],
      [judged('a', 4)],
      config,
      reliable,
    );
    expect(updated).toMatchObject({
      timesFired: 11,
      timesTested: 9,
      timesCorrect: 7,
      lastFiredIteration: 7,
    });
  });

  it('counts firing only where the judge failed or gave no result', () => {
    // Act
    const [updated] = recordPatternOutcomes(
      [makePattern({ id: 'p_good' })],
      [cheap('a', ['p_good']), cheap('b', ['p_good'])],
      [failed('a')],
      config,
      reliable,
    );

    // Assess
    expect(updated).toMatchObject({ timesFired: 2, timesTested: 0, timesCorrect: 0 });
  });

  it('leaves tested and correct alone when the judge is unreliable', () => {
    const [updated] = recordPatternOutcomes(
      [makePattern({ id: 'p_good' })],
      [cheap('a', ['p_good'])],
      [judged('a', 4.5)],
      config,
      { iteration: 7, judgeReliable: false },
    );
    expect(updated).toMatchObject({
      timesFired: 1,
      timesTested: 0,
      timesCorrect: 0,
      lastFiredIteration: 7,
    });
  });

  it('counts a pattern listed twice on one artefact once, and ignores unknown ids', () => {
    const [updated] = recordPatternOutcomes(
      [makePattern({ id: 'p_good' })],
      [cheap('a', ['p_good', 'p_good', 'p_gone'])],
      [judged('a', 4.5)],
      config,
      reliable,
    );
    expect(updated).toMatchObject({ timesFired: 1, timesTested: 1, timesCorrect: 1 });
  });

  it('uses the configured cheap threshold as the dividing line', () => {
    const [updated] = recordPatternOutcomes(
      [makePattern({ id: 'p_good' })],
      [cheap('a', ['p_good'])],
      [judged('a', 3.5)],
      { convergence: { ...config.convergence, cheapThreshold: 3.5 } },
      reliable,
    );
    expect(updated?.timesCorrect).toBe(1);
  });

  it('never moves the last firing back in time', () => {
    const [updated] = recordPatternOutcomes(
      [makePattern({ id: 'p_good', lastFiredIteration: 9 })],
      [cheap('a', ['p_good'])],
      [judged('a', 4)],
      config,
      reliable,
    );
    expect(updated?.lastFiredIteration).toBe(9);
  });
});

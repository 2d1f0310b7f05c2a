import { describe, expect, it } from 'vitest';
import {
  agreementWith,
  fitSettings,
  isBetter,
  MAX_ROUNDS,
  type FitProgress,
} from '../../lambdas/core/calibration/fit-settings.js';
import { labelledStories } from '../../lambdas/core/calibration/labelled-stories.js';
import { parseLabels } from '../../lambdas/core/calibration/labels.js';
import { InvalidInputError } from '../../lambdas/core/errors.js';
import { PatternSetSchema } from '../../lambdas/core/schemas/evaluation.js';
import { DEFAULT_QUS_SETTINGS } from '../../lambdas/core/schemas/qus.js';

const SET = PatternSetSchema.parse({
  schemaVersion: '2.0',
  version: 1,
  createdAt: '2026-01-01T00:00:00Z',
  patterns: [],
});

/** Stories whose syntactic defects are plain to see, labelled as a person would. */
const TRAIN_CSV = [
  'id,story,atomic,minimal',
  's1,"As a driver, I want the car to brake and to steer on its own.",conjunctions,minimal',
  's2,"As a planner, I want traffic data (AVs) on a map.",atomic,brackets',
  's3,"As a passenger, I want to see the arrival time.",atomic,minimal',
  's4,"As a fleet manager, I want to see each vehicle\'s location.",atomic,minimal',
  's5,"As a rider, I want to pay and to book a seat.",conjunctions,minimal',
  's6,"As a visitor, I want to read the opening hours.",atomic,minimal',
].join('\n');

const backlog = (csv: string) => {
  const labels = parseLabels(csv, 'train.csv');
  return { labels, artefacts: labelledStories(labels) };
};

describe('Function: isBetter', () => {
  it('ranks by kappa first, then by AUC; null below any number', () => {
    expect(isBetter({ kappa: 0.5, auc: 0.1 }, { kappa: 0.4, auc: 0.9 })).toBe(true);
    expect(isBetter({ kappa: 0.5, auc: 0.6 }, { kappa: 0.5, auc: 0.55 })).toBe(true);
    expect(isBetter({ kappa: 0.5, auc: 0.6 }, { kappa: 0.5, auc: 0.6 })).toBe(false);
    expect(isBetter({ kappa: 0, auc: null }, { kappa: null, auc: 0.9 })).toBe(true);
    expect(isBetter({ kappa: null, auc: 0.7 }, { kappa: null, auc: 0.6 })).toBe(true);
    expect(isBetter({ kappa: null, auc: null }, { kappa: null, auc: null })).toBe(false);
  });

  it('takes figures that differ only in their last bits as equal', () => {
    expect(isBetter({ kappa: 0.1 + 0.2, auc: 0.5 }, { kappa: 0.3, auc: 0.5 })).toBe(false);
  });
});

describe('Function: fitSettings', () => {
  it('is deterministic, never worse than the start, and reports the score its settings give', () => {
    // Prepare
    const train = backlog(TRAIN_CSV);
    const progress: FitProgress[] = [];

    // Act
    const first = fitSettings(train, SET, (step) => progress.push(step));
    const second = fitSettings(train, SET);

    // Assess
    expect(second).toEqual(first);
    expect(first.start).toEqual(SET.qus ?? DEFAULT_QUS_SETTINGS);
    expect(isBetter(first.startScore, first.fittedScore)).toBe(false);
    const refit = agreementWith(train, SET, first.fitted).anySyntactic;
    expect({ kappa: refit?.kappa, auc: refit?.auc }).toEqual(first.fittedScore);
    expect(first.rounds).toBeGreaterThanOrEqual(1);
    expect(first.rounds).toBeLessThanOrEqual(MAX_ROUNDS);
    expect(progress.length).toBeGreaterThan(0);
    expect(progress.at(-1)?.evaluated).toBe(first.evaluated);
    expect(progress.map((step) => step.setting)).toContain('atomicScope');
  });

  it('refuses labels without a syntactic criterion: there is nothing to maximise', () => {
    const train = backlog('id,story,unique\ns1,"As a user, I want x.",unique\n');
    expect(() => fitSettings(train, SET)).toThrow(InvalidInputError);
    expect(() => fitSettings(train, SET)).toThrow(/labels no syntactic criterion/);
  });
});

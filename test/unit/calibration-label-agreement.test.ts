import { describe, expect, it } from 'vitest';
import {
  agreementOver,
  measureLabelAgreement,
  type MatchedStory,
} from '../../lambdas/core/calibration/label-agreement.js';
import { parseLabels } from '../../lambdas/core/calibration/labels.js';
import type { Artefact, CheapModeResult } from '../../lambdas/core/schemas/evaluation.js';
import type { QusCriterion } from '../../lambdas/core/schemas/qus.js';
import { makeCheapResult } from '../support/evaluation.js';

/** A cheap result with the given defects and gestalt: a constructed prediction. */
const cheap = (id: string, gestalt: number, defects: QusCriterion[] = []): CheapModeResult =>
  makeCheapResult({
    artefactId: id,
    gestalt,
    defects: defects.map((criterion) => ({ criterion, evidence: 'x' })),
  });

const story = (id: string, description: string): Artefact => ({
  kind: 'document',
  id,
  documentType: 'user_story',
  content: { description },
});

describe('Function: agreementOver', () => {
  it('counts one criterion: confusion, kappa, precision, recall, AUC and kinds', () => {
    // Prepare: humans flag s1, s2, s3 (two kinds); the cheap mode flags s1, s2 and s4.
    const stories: MatchedStory[] = [
      {
        labels: { atomic: { defect: true, kind: 'conjunctions' } },
        cheap: cheap('s1', 2, ['atomic']),
      },
      {
        labels: { atomic: { defect: true, kind: 'conjunctions' } },
        cheap: cheap('s2', 3, ['atomic']),
      },
      { labels: { atomic: { defect: true, kind: 'and/or' } }, cheap: cheap('s3', 4) },
      { labels: { atomic: { defect: false } }, cheap: cheap('s4', 4, ['atomic']) },
      { labels: { atomic: { defect: false } }, cheap: cheap('s5', 5) },
      { labels: {}, cheap: cheap('s6', 5, ['atomic']) },
    ];

    // Act
    const agreement = agreementOver('atomic', ['atomic'], stories);

    // Assess
    expect(agreement.confusion).toEqual({ tp: 2, fp: 1, fn: 1, tn: 1 });
    expect(agreement.labelled).toBe(5);
    expect(agreement.unlabelled).toBe(1);
    // pₒ = 3/5, pₑ = (3·3 + 2·2)/25 = 13/25: κ = (15 − 13)/(25 − 13).
    expect(agreement.kappa).toBeCloseTo(2 / 12, 12);
    expect(agreement.precision).toBeCloseTo(2 / 3, 12);
    expect(agreement.recall).toBeCloseTo(2 / 3, 12);
    // Positives 2, 3, 4 against negatives 4, 5: 1 + 1 + 1 + 1 + 0.5 + 1 of 6 pairs.
    expect(agreement.auc).toBeCloseTo(5.5 / 6, 12);
    expect(agreement.kinds).toEqual([
      { kind: 'conjunctions', detected: 2, missed: 0 },
      { kind: 'and/or', detected: 0, missed: 1 },
    ]);
  });

  it('over several criteria, holds only labelled criteria against the cheap mode', () => {
    // Prepare: well-formed is labelled on s1 only; the cheap mode's well-formed defect on s2
    // is about a criterion nobody labelled there, so it does not count as a prediction.
    const stories: MatchedStory[] = [
      {
        labels: { 'well-formed': { defect: true, kind: 'no role' }, atomic: { defect: false } },
        cheap: cheap('s1', 2, ['well-formed']),
      },
      { labels: { atomic: { defect: false } }, cheap: cheap('s2', 4, ['well-formed']) },
      {
        labels: { minimal: { defect: true, kind: 'brackets' } },
        cheap: cheap('s3', 3, ['minimal']),
      },
      { labels: { atomic: { defect: false }, minimal: { defect: false } }, cheap: cheap('s4', 5) },
    ];

    // Act
    const agreement = agreementOver(
      'any syntactic defect',
      ['well-formed', 'atomic', 'minimal'],
      stories,
    );

    // Assess
    expect(agreement.confusion).toEqual({ tp: 2, fp: 0, fn: 0, tn: 2 });
    expect(agreement.kappa).toBe(1);
    expect(agreement.kinds).toEqual([
      { kind: 'minimal: brackets', detected: 1, missed: 0 },
      { kind: 'well-formed: no role', detected: 1, missed: 0 },
    ]);
  });
});

describe('Function: measureLabelAgreement', () => {
  it('matches rows by id, reports unlabelled stories and unmatched rows, and the aggregates', () => {
    // Prepare
    const labels = parseLabels(
      'id,atomic,minimal,unique\ns1,conjunctions,minimal,\ns2,atomic,brackets,unique\nzz,atomic,minimal,\n',
      'labels.csv',
    );
    const artefacts = [story('s1', 'A and B'), story('s2', '(AVs)'), story('s3', 'c')];
    const results = [cheap('s1', 2, ['atomic']), cheap('s2', 4), cheap('s3', 5, ['minimal'])];

    // Act
    const agreement = measureLabelAgreement(artefacts, results, labels);

    // Assess
    expect(agreement).toMatchObject({
      labels: 'labels.csv',
      matchBy: 'id',
      stories: 3,
      matched: 2,
      unlabelledStories: ['s3'],
      unmatchedRows: [{ line: 4, key: 'zz' }],
    });
    expect(agreement.criteria.map((c) => [c.name, c.labelled, c.confusion])).toEqual([
      ['atomic', 2, { tp: 1, fp: 0, fn: 0, tn: 1 }],
      ['minimal', 2, { tp: 0, fp: 0, fn: 1, tn: 1 }],
      ['unique', 1, { tp: 0, fp: 0, fn: 0, tn: 1 }],
    ]);
    expect(agreement.anySyntactic?.criteria).toEqual(['atomic', 'minimal']);
    expect(agreement.anySyntactic?.confusion).toEqual({ tp: 1, fp: 0, fn: 1, tn: 0 });
    expect(agreement.anyDefect.criteria).toEqual(['atomic', 'minimal', 'unique']);
  });

  it('matches rows by the story sentence when the file has no id column', () => {
    const labels = parseLabels(
      'story,atomic\n"As a user, I want A and B.",conjunctions\n',
      'l.csv',
    );
    const agreement = measureLabelAgreement(
      [story('line-1', '  As a user, I want A and B. ')],
      [cheap('line-1', 3, ['atomic'])],
      labels,
    );
    expect(agreement.matched).toBe(1);
    expect(agreement.criteria[0]?.confusion.tp).toBe(1);
  });

  it('has no "any syntactic" figure when the file labels no syntactic criterion', () => {
    const labels = parseLabels('id,unique\ns1,unique\n', 'l.csv');
    const agreement = measureLabelAgreement([story('s1', 'x')], [cheap('s1', 4)], labels);
    expect(agreement.anySyntactic).toBeNull();
    expect(agreement.anyDefect.labelled).toBe(1);
  });
});

import { describe, expect, it } from 'vitest';
import { compilePatternSet } from '../../lambdas/core/cheap/compile.js';
import { evaluateCheap } from '../../lambdas/core/cheap/evaluate.js';
import {
  acceptanceCriteriaScore,
  isAppropriateScope,
} from '../../lambdas/core/cheap/story-heuristics.js';
import { patternSetChecksum } from '../../lambdas/core/patterns/pattern-set-versions.js';
import {
  AcceptanceCriteriaBoundsSchema,
  DEFAULT_STORY_HEURISTICS,
  PatternSetSchema,
} from '../../lambdas/core/schemas/evaluation.js';
import { formatZodIssues } from '../../lambdas/core/shared/validation.js';
import { makeStory, storyArtefact } from '../support/evaluation.js';

const setOf = (extra: Record<string, unknown> = {}) =>
  PatternSetSchema.parse({
    schemaVersion: '2.0',
    version: 1,
    createdAt: '2026-01-01T00:00:00Z',
    patterns: [],
    ...extra,
  });

/** Bounds from a migrated v1 file that allowed up to 9 criteria, and asked for at least 4. */
const WIDE = { fewLimit: 2, idealMin: 4, idealMax: 9, manyLimit: 12 };

describe('Schema: storyHeuristics.acceptanceCriteria', () => {
  it("defaults to the design's numbers: too few under 2, ideal 3–7, too many over 10", () => {
    expect(DEFAULT_STORY_HEURISTICS).toEqual({
      acceptanceCriteria: { fewLimit: 2, idealMin: 3, idealMax: 7, manyLimit: 10 },
    });
    expect(setOf({ storyHeuristics: {} }).storyHeuristics).toEqual(DEFAULT_STORY_HEURISTICS);
  });

  it('refuses bounds out of order, naming the bound and the order expected', () => {
    const parsed = AcceptanceCriteriaBoundsSchema.safeParse({ idealMin: 8, idealMax: 5 });
    expect(parsed.success).toBe(false);
    expect(formatZodIssues(parsed.error!)).toEqual([
      'idealMax: idealMax (5) is below idealMin (8): expected fewLimit ≤ idealMin ≤ idealMax ≤ manyLimit',
    ]);
  });

  it('refuses an unknown or fractional bound', () => {
    const parsed = PatternSetSchema.safeParse({
      ...setOf(),
      storyHeuristics: { acceptanceCriteria: { idealMax: 7.5, most: 3 } },
    });
    expect(parsed.success).toBe(false);
    expect(formatZodIssues(parsed.error!)).toEqual([
      'storyHeuristics.acceptanceCriteria.idealMax: expected int, received number',
      'storyHeuristics.acceptanceCriteria.most: unknown key',
    ]);
  });

  it('leaves a set without it as it was, so its checksum does not change', () => {
    // Prepare: a set as stored before storyHeuristics existed.
    const stored = { schemaVersion: '2.0', version: 1, createdAt: '2026-01-01T00:00:00Z' };
    const before = {
      ...stored,
      patterns: [],
      reason: '',
      techValidation: setOf().techValidation,
      scoringWeights: setOf().scoringWeights,
    };

    // Act
    const read = setOf();

    // Assess
    expect(read).toEqual(before);
    expect(Object.keys(read)).not.toContain('storyHeuristics');
    expect(patternSetChecksum(read)).toBe(patternSetChecksum(before as typeof read));
  });
});

describe('Function: acceptanceCriteriaScore, with bounds', () => {
  it.each([
    [1, 0.2],
    [3, 0.6],
    [4, 1],
    [9, 1],
    [10, 0.6],
    [12, 0.6],
    [13, 0.3],
  ])('%i criteria score %d with ideal 4–9, too many over 12', (count, score) => {
    expect(acceptanceCriteriaScore(count, WIDE)).toBe(score);
  });
});

describe('Function: isAppropriateScope, with bounds', () => {
  it('takes its criteria limits from fewLimit and manyLimit', () => {
    const description = 'd'.repeat(100);
    expect(isAppropriateScope(description, 12, WIDE)).toBe(true);
    expect(isAppropriateScope(description, 13, WIDE)).toBe(false);
    expect(isAppropriateScope(description, 2, { ...WIDE, fewLimit: 3, idealMin: 4 })).toBe(false);
  });
});

describe('Function: evaluateCheap, with a set’s storyHeuristics', () => {
  const nine = storyArtefact(
    makeStory({
      id: 'story_nine',
      title: 'Add CSV export to invoices',
      description: 'Finance users will export invoices as CSV, which saves a day at month end.',
      acceptance_criteria: Array.from({ length: 9 }, (_, i) => `criterion ${i}`),
    }),
  );

  it('scores the count with the set’s bounds, carried by compilePatternSet', () => {
    // Prepare
    // The design's heuristics alone: the QUS detectors would weigh in the fraction too.
    const qus = { detectors: [] };
    const plain = compilePatternSet(setOf({ qus }));
    const wide = compilePatternSet(setOf({ qus, storyHeuristics: { acceptanceCriteria: WIDE } }));

    // Act
    const before = evaluateCheap(nine, plain);
    const after = evaluateCheap(nine, wide);

    // Assess: 9 criteria are "other" (0.6 of the acCount weight) by default, ideal here.
    expect(plain.storyHeuristics).toEqual(DEFAULT_STORY_HEURISTICS);
    expect(wide.storyHeuristics.acceptanceCriteria).toEqual(WIDE);
    expect(after.rawScore - before.rawScore).toBeCloseTo((5 * (1 - 0.6)) / 5, 2);
  });
});

import { describe, expect, it } from 'vitest';
import { compilePatternSet } from '../../lambdas/core/cheap/compile.js';
import { evaluateCheap } from '../../lambdas/core/cheap/evaluate.js';
import {
  ArtefactSchema,
  CheapModeResultSchema,
  PatternSetSchema,
  type Artefact,
  type Pattern,
} from '../../lambdas/core/schemas/evaluation.js';
import { makePattern, makeStory, storyArtefact } from '../support/evaluation.js';

/**
 * A set with the design's heuristics and no QUS detectors: these tests pin the heuristics'
 * scale and the patterns' effect (the detectors have their own tests).
 */
const setOf = (patterns: Pattern[], extra: Record<string, unknown> = {}) =>
  PatternSetSchema.parse({
    schemaVersion: '2.0',
    version: 1,
    createdAt: '2026-01-01T00:00:00Z',
    patterns,
    techValidation: { validRepoPaths: { aero: ['packages/'] } },
    qus: { detectors: [] },
    ...extra,
  });

/** A story that meets every heuristic (gestalt 4.91 before patterns: the top of the soft bound). */
const perfect = storyArtefact(
  makeStory({
    id: 'story_perfect',
    title: 'Add CSV export to invoices',
    description: 'Finance users will export invoices as CSV, which saves a day at month end.',
    technical_area: 'aero packages/billing',
  }),
);
/** A story that meets none (gestalt 1 before patterns). */
const empty: Artefact = {
  kind: 'document',
  id: 'story_empty',
  documentType: 'user_story',
  content: { id: 'story_empty', title: '', description: '', acceptance_criteria: [] },
};
/** A story that earns half: title and value only (2 of 5 points, 0.4). */
const middling = storyArtefact(
  makeStory({
    id: 'story_mid',
    title: 'Add CSV export',
    description: 'Users will export CSV.',
    acceptance_criteria: ['one'],
    technical_area: null,
  }),
);

describe('Function: evaluateCheap', () => {
  it('maps the heuristics to the judge scale: gestalt 1 + 4f (softly bounded at the ends), rawScore 5f', () => {
    // Prepare
    const compiled = compilePatternSet(setOf([]));

    // Act
    const results = [perfect, middling, empty].map((artefact) => evaluateCheap(artefact, compiled));

    // Assess
    expect(results.map(({ gestalt, rawScore }) => ({ gestalt, rawScore }))).toEqual([
      // 5 − 0.25·e^(−1): within a quarter point of an end the score approaches it.
      { gestalt: 4.91, rawScore: 5 },
      // title 1 + AC 0.2 + value 1 = 2.2 of 5 points
      { gestalt: 2.76, rawScore: 2.2 },
      { gestalt: 1.09, rawScore: 0 },
    ]);
  });

  it('adds 0.3 × weight for a good pattern and subtracts it for a bad one', () => {
    // Prepare
    const compiled = compilePatternSet(
      setOf([
        makePattern({ id: 'p_good', type: 'good', weight: 2, keywords: ['csv'] }),
        makePattern({ id: 'p_bad', type: 'bad', weight: 0.5, keywords: ['export'] }),
      ]),
    );

    // Act
    const result = evaluateCheap(middling, compiled);

    // Assess: 2.76 + 0.6 − 0.15
    expect(result.gestalt).toBe(3.21);
    expect(result.rawScore).toBe(2.2); // the heuristics alone
    expect(result.patternsMatched).toEqual(['p_good', 'p_bad']);
  });

  it('caps the patterns at ±1.5 points however many fire', () => {
    // Prepare: ten weight-2 patterns would be 6 points.
    const good = Array.from({ length: 10 }, (_, i) =>
      makePattern({ id: `p_g${i}`, type: 'good', weight: 2, keywords: ['csv'] }),
    );
    const bad = good.map((pattern) => ({
      ...pattern,
      id: pattern.id.replace('g', 'b'),
      type: 'bad' as const,
    }));

    // Act
    const up = evaluateCheap(middling, compilePatternSet(setOf(good)));
    const down = evaluateCheap(middling, compilePatternSet(setOf(bad)));

    // Assess
    expect(up.gestalt).toBe(4.26);
    expect(down.gestalt).toBe(1.26);
  });

  it('keeps gestalt within 1–5, yet a bad pattern still lowers a story at the bottom and a good one raises one at the top', () => {
    // Prepare: a perfect story with a good pattern, a story earning nothing with a bad one.
    const patterns = [
      makePattern({ id: 'p_good', type: 'good', weight: 2, keywords: ['csv'] }),
      makePattern({ id: 'p_bad', type: 'bad', weight: 2, keywords: ['refactor'] }),
    ];
    const poor: Artefact = {
      kind: 'document',
      id: 'story_poor',
      documentType: 'user_story',
      content: { title: 'Refactor things', description: 'Short.', acceptance_criteria: [] },
    };
    const withPatterns = compilePatternSet(setOf(patterns));
    const without = compilePatternSet(setOf([]));

    // Act
    const high = evaluateCheap(perfect, withPatterns);
    const low = evaluateCheap(poor, withPatterns);

    // Assess
    expect(high.gestalt).toBe(4.99);
    expect(low.gestalt).toBe(1.01);
    expect(high.gestalt).toBeGreaterThan(evaluateCheap(perfect, without).gestalt);
    expect(low.gestalt).toBeLessThan(evaluateCheap(poor, without).gestalt);
    expect(() => CheapModeResultSchema.parse(high)).not.toThrow();
    expect(() => CheapModeResultSchema.parse(low)).not.toThrow();
  });

  it('lists heuristic reasons, then the ids of the patterns that fired, in set order', () => {
    // Prepare
    const compiled = compilePatternSet(
      setOf([
        makePattern({ id: 'p_2', keywords: ['invoices'] }),
        makePattern({ id: 'p_1', keywords: ['absent'] }),
        makePattern({ id: 'p_3', phrases: ['month end'] }),
      ]),
    );

    // Act
    const result = evaluateCheap(perfect, compiled);

    // Assess
    expect(result).toEqual({
      artefactId: 'story_perfect',
      gestalt: 4.99,
      rawScore: 5,
      reasons: [
        'good_title',
        'good_ac',
        'good_tech',
        'clear_user_value',
        'appropriate_scope',
        'p_2',
        'p_3',
      ],
      patternsMatched: ['p_2', 'p_3'],
      patternsMissed: ['p_1'],
      defects: [],
    });
  });

  it('names every heuristic the story has a field for: earned, or its opposite', () => {
    // Act
    const result = evaluateCheap(middling, compilePatternSet(setOf([])));

    // Assess: a short description, one criterion, no technical area.
    expect(result.reasons).toEqual([
      'good_title',
      'weak_ac',
      'weak_tech',
      'clear_user_value',
      'inappropriate_scope',
    ]);
  });

  it('names as missed every pattern that applies but did not fire, and no other', () => {
    // Prepare
    const patterns = [
      makePattern({ id: 'p_fires', keywords: ['csv'] }),
      makePattern({ id: 'p_miss_1', keywords: ['pdf'] }),
      makePattern({ id: 'p_miss_2', regexes: ['\\bxml\\b'] }),
      makePattern({ id: 'p_empty' }), // nothing to match: always missed
      makePattern({ id: 'p_change', keywords: ['pdf'], appliesTo: ['change'] }),
      makePattern({ id: 'p_rejected', keywords: ['pdf'], status: 'rejected' }),
      makePattern({ id: 'p_pruned', keywords: ['csv'], status: 'pruned' }),
    ];

    // Act
    const result = evaluateCheap(middling, compilePatternSet(setOf(patterns)));

    // Assess
    expect(result.patternsMatched).toEqual(['p_fires']);
    expect([...result.patternsMissed].sort()).toEqual(['p_empty', 'p_miss_1', 'p_miss_2']);
  });

  it('scores provisional patterns like active ones, and ignores rejected and pruned ones', () => {
    // Prepare
    const statuses = ['active', 'provisional', 'rejected', 'pruned'] as const;
    const compiled = compilePatternSet(
      setOf(
        statuses.map((status) => makePattern({ id: `p_${status}`, keywords: ['csv'], status })),
      ),
    );

    // Act
    const result = evaluateCheap(middling, compiled);

    // Assess
    expect(result.patternsMatched).toEqual(['p_active', 'p_provisional']);
    expect(result.gestalt).toBe(3.36); // 2.76 + 2 × 0.3
  });

  it('applies document patterns to documents of their type only, and change patterns to changes', () => {
    // Prepare
    const compiled = compilePatternSet(
      setOf([
        makePattern({ id: 'p_story', keywords: ['csv'] }),
        makePattern({ id: 'p_spec', keywords: ['csv'], appliesTo: ['document:api_spec'] }),
        makePattern({ id: 'p_change', keywords: ['csv'], appliesTo: ['change'] }),
      ]),
    );
    const spec = ArtefactSchema.parse({
      kind: 'document',
      id: 'spec_1',
      documentType: 'api_spec',
      content: { paths: { '/invoices.csv': { get: { summary: 'CSV export' } } } },
    });
    const change = ArtefactSchema.parse({
      kind: 'change',
      id: 'US-001',
      story: {
        id: 'US-001',
        title: 't',
        description: 'd',
        acceptanceCriteria: [],
        priority: 1,
        passes: false,
      },
      diff: 'diff --git a/a.ts b/a.ts\n--- a/a.ts\n+++ b/a.ts\n@@ -0,0 +1 @@\n+export const csv = 1;\n',
      gates: [],
    });

    // Act
    const results = [middling, spec, change].map((artefact) => evaluateCheap(artefact, compiled));

    // Assess
    expect(results.map((result) => result.patternsMatched)).toEqual([
      ['p_story'],
      ['p_spec'],
      ['p_change'],
    ]);
  });

  it('scores a document type without heuristics at the middle (3), patterns deciding the rest', () => {
    // Prepare
    const compiled = compilePatternSet(
      setOf([makePattern({ id: 'p_spec', keywords: ['csv'], appliesTo: ['document:api_spec'] })]),
    );
    const spec = ArtefactSchema.parse({
      kind: 'document',
      id: 'spec_1',
      documentType: 'api_spec',
      content: 'GET /invoices.csv returns CSV',
    });
    const other = ArtefactSchema.parse({
      kind: 'document',
      id: 'x',
      documentType: 'adr',
      content: {},
    });

    // Act
    const [withPattern, without] = [spec, other].map((artefact) =>
      evaluateCheap(artefact, compiled),
    );

    // Assess
    expect(withPattern).toMatchObject({ gestalt: 3.3, rawScore: 2.5, reasons: ['p_spec'] });
    expect(without).toMatchObject({ gestalt: 3, rawScore: 2.5, reasons: [], patternsMissed: [] });
  });

  it("uses the pattern set's scoringWeights and techValidation", () => {
    // Prepare: only the technical area counts, and "aero" is a known repository.
    const weights = {
      titleQuality: 0,
      acCount: 0,
      techSpecificity: 1,
      userFocus: 0,
      scopeCheck: 0,
    };
    const compiled = compilePatternSet(
      setOf([], {
        scoringWeights: weights,
        techValidation: { validRepoPaths: { aero: ['packages/'] } },
      }),
    );
    const story = storyArtefact(makeStory({ technical_area: 'aero apps/web' }));

    // Act
    const result = evaluateCheap(story, compiled);

    // Assess: 0.5 of the only point
    expect(result).toMatchObject({ gestalt: 3, rawScore: 2.5 });
  });

  it('scores a change artefact with the change heuristics', () => {
    // Prepare
    const change = ArtefactSchema.parse({
      kind: 'change',
      id: 'US-001',
      story: {
        id: 'US-001',
        title: 't',
        description: 'd',
        acceptanceCriteria: [],
        priority: 1,
        passes: false,
      },
      diff: 'diff --git a/a.ts b/a.ts\n--- a/a.ts\n+++ b/a.ts\n@@ -0,0 +1 @@\n+x\n',
      gates: [
        {
          name: 'test',
          blocking: true,
          passed: true,
          exitCode: 0,
          timedOut: false,
          durationMs: 1,
          outputTail: '',
        },
      ],
    });

    // Act
    const result = evaluateCheap(change, compilePatternSet(setOf([])));

    // Assess: everything but tests (4 of 5 points)
    expect(result).toMatchObject({
      gestalt: 4.2,
      rawScore: 4,
      reasons: ['gates_passed', 'reviewable_diff', 'focused_change'],
    });
  });
});

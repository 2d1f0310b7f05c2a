import { describe, expect, it } from 'vitest';
import { compilePatternSet } from '../../lambdas/core/cheap/compile.js';
import { evaluateBacklog } from '../../lambdas/core/cheap/evaluate-backlog.js';
import { evaluateCheap } from '../../lambdas/core/cheap/evaluate.js';
import { parseStory } from '../../lambdas/core/cheap/qus/story-parts.js';
import { detectUniform, dominantTemplate } from '../../lambdas/core/cheap/qus/uniform.js';
import { findDuplicates } from '../../lambdas/core/cheap/qus/unique.js';
import {
  PatternSetSchema,
  type Artefact,
  type PatternSet,
} from '../../lambdas/core/schemas/evaluation.js';
import { makePattern } from '../support/evaluation.js';
import { ustaiStory } from '../support/ustai-stories.js';

/** Real stories from the UStAI fixture (abstract A17), one of them in "I need" form. */
const A17 = {
  A17US2Ge:
    'As a medical researcher, I need to analyze the effectiveness of using LAMSTAR neural networks and wavelet transform-based preprocessing in predicting sleep disturbances, to advance understanding and technology in sleep medicine.',
  A17US10O1:
    'As a quality assurance specialist, I want to monitor the prediction system’s performance metrics, so that I can ensure its reliability and accuracy in clinical settings.',
} as const;

const set = (qus: Record<string, unknown> = {}, extra: Partial<PatternSet> = {}) =>
  compilePatternSet(
    PatternSetSchema.parse({
      schemaVersion: '2.0',
      version: 1,
      createdAt: '2026-01-01T00:00:00Z',
      patterns: [],
      qus,
      ...extra,
    }),
  );
const story = (id: string, content: string): Artefact => ({
  kind: 'document',
  id,
  documentType: 'user_story',
  content,
});

describe("Uniform: the backlog's dominant template", () => {
  it('reports a story that leaves the template most stories share, naming what differs', () => {
    for (const [id, text] of Object.entries(A17)) expect(ustaiStory(text).id).toBe(id);
    const templates = [
      A17.A17US10O1,
      'As a nurse, I want alerts, so that I act early.',
      'As a doctor, I want summaries, so that I read less.',
      A17.A17US2Ge,
    ].map((text) => parseStory(text).template);
    const dominant = dominantTemplate(templates, 0.6);

    expect(dominant?.key).toBe('as a · i want · so that');
    expect(templates.slice(0, 3).map((template) => detectUniform(template, dominant))).toEqual([
      null,
      null,
      null,
    ]);
    expect(detectUniform(templates[3]!, dominant)).toEqual({
      criterion: 'uniform',
      evidence: 'i need (backlog: i want); , to (backlog: so that)',
    });
  });

  it('reports nothing when no template holds the share: there is none to leave', () => {
    const templates = [
      'As a nurse, I want alerts, so that I act early.',
      'As a doctor, I need summaries.',
      'As a clerk, I can print.',
    ].map((text) => parseStory(text).template);
    expect(dominantTemplate(templates, 0.6)).toBeNull();
  });
});

describe('Unique: duplicates across the backlog', () => {
  it("finds the fixture's own duplicate: one model wrote the same story for two papers", () => {
    // A25US5Ge and A27US4Ge: the same sentence, word for word.
    const copy =
      "As a music streaming service provider, I want to recommend songs to users based on the music they've recently listened to, even if they haven't built up a large listening history.";
    expect(ustaiStory(copy).id).toBe('A25US5Ge');
    const results = evaluateBacklog(
      [story('A25US5Ge', copy), story('A17US10O1', A17.A17US10O1), story('A27US4Ge', copy)],
      set(),
    );
    expect(results.map((result) => result.defects.find((d) => d.criterion === 'unique'))).toEqual([
      expect.objectContaining({ relatedId: 'A27US4Ge' }),
      undefined,
      expect.objectContaining({ relatedId: 'A25US5Ge' }),
    ]);
  });

  it('pairs the same story written for two roles, and leaves different stories alone', () => {
    const found = findDuplicates(
      [
        { id: 'a', text: 'to export invoices as CSV, so that I close the month' },
        { id: 'b', text: 'to export invoices as CSV, so that I close the month' },
        { id: 'c', text: 'to import bank statements' },
        { id: 'd', text: '' },
      ],
      0.9,
    );
    expect([...found.entries()].map(([index, d]) => [index, d.otherId, d.similarity])).toEqual([
      [1, 'a', 1],
      [0, 'b', 1],
    ]);
  });

  it('finds every pair above the threshold that a comparison of all pairs finds', () => {
    // Prepare: variations of a few stories, some one word apart.
    const words = ['export', 'invoices', 'csv', 'close', 'month', 'fast', 'team', 'report'];
    const texts = Array.from({ length: 60 }, (_, i) =>
      words.filter((_, w) => (i * 7 + w * 3) % 11 !== 0 || w === i % 8).join(' '),
    );
    const jaccard = (a: string, b: string) => {
      const x = new Set(a.split(' '));
      const y = new Set(b.split(' '));
      const common = [...x].filter((word) => y.has(word)).length;
      return common / (x.size + y.size - common);
    };
    const brute = new Set<number>();
    texts.forEach((a, i) =>
      texts.forEach((b, j) => {
        if (i !== j && jaccard(a, b) >= 0.8) brute.add(i);
      }),
    );

    // Act
    const found = findDuplicates(
      texts.map((text, i) => ({ id: String(i), text })),
      0.8,
    );

    // Assess
    expect(new Set(found.keys())).toEqual(brute);
  });
});

describe('Function: evaluateBacklog', () => {
  it("lists each story's defects with evidence, the backlog's among them", () => {
    const results = evaluateBacklog(
      [
        story('s1', 'As a clerk, I want to print invoices, so that I can file them.'),
        story('s2', 'As a manager, I want to print invoices, so that I can file them.'),
        story(
          's3',
          'As a clerk, I want to print and email receipts (PDF), so that I can file them.',
        ),
        story('s4', 'As a clerk, I want to archive old invoices, so that I can find them.'),
      ],
      set(),
    );
    expect(results.map((result) => result.defects)).toEqual([
      [
        {
          criterion: 'unique',
          evidence: 'to print invoices',
          relatedId: 's2',
        },
      ],
      [{ criterion: 'unique', evidence: 'to print invoices', relatedId: 's1' }],
      [
        { criterion: 'atomic', evidence: 'to print and email receipts' },
        { criterion: 'minimal', evidence: '(PDF)' },
      ],
      [],
    ]);
    expect(results[2]!.reasons).toEqual(['clear_user_value', 'defect:atomic', 'defect:minimal']);
  });

  it('scores a clean one-sentence story high: absent fields are neutral, not zero', () => {
    const [clean] = evaluateBacklog(
      [story('s1', 'As an accountant, I want CSV exports, so that I close the month fast.')],
      set(),
    );
    expect(clean!.gestalt).toBeGreaterThanOrEqual(4.5);
    expect(clean!.defects).toEqual([]);
  });

  it('lowers the score for each defect, at any level, and for a bad pattern at the bottom too', () => {
    const clean = 'As a clerk, I want to print invoices.';
    const oneDefect = 'As a clerk, I want to print and email invoices.';
    const twoDefects = 'As a clerk, I want to print and email invoices (PDF).';
    const threeDefects = 'as a clerk, I want to print and email invoices (PDF)';
    const scores = [clean, oneDefect, twoDefects, threeDefects].map(
      (text, i) => evaluateCheap(story(`s${i}`, text), set()).gestalt,
    );
    expect(scores).toEqual([...scores].sort((a, b) => b - a));
    expect(new Set(scores).size).toBe(4);

    const worst = evaluateCheap(story('w', 'make it better and faster (now)'), set()).gestalt;
    const bad = set(
      {},
      {
        patterns: [makePattern({ id: 'p_bad', type: 'bad', weight: 2, keywords: ['better'] })],
      },
    );
    expect(evaluateCheap(story('w', 'make it better and faster (now)'), bad).gestalt).toBeLessThan(
      worst,
    );
  });

  it('runs only the detectors the set turns on', () => {
    const [result] = evaluateBacklog(
      [story('s1', 'As a clerk, I want to print and email invoices (PDF).')],
      set({ detectors: ['minimal'] }),
    );
    expect(result!.defects.map((defect) => defect.criterion)).toEqual(['minimal']);
  });
});

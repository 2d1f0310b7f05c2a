import { describe, expect, it } from 'vitest';
import {
  acceptanceCriteriaScore,
  hasUserValue,
  isAppropriateScope,
  scoreStory,
  technicalSpecificity,
  titleQuality,
} from '../../lambdas/core/cheap/story-heuristics.js';
import { compilePatternSet } from '../../lambdas/core/cheap/compile.js';
import { readStoryFields, storyText } from '../../lambdas/core/cheap/story-fields.js';
import { PatternSetSchema } from '../../lambdas/core/schemas/evaluation.js';
import type { TechRules } from '../../lambdas/core/cheap/types.js';

/** Tech rules as a pattern set would compile them. */
function techRules(
  validRepoPaths: Record<string, string[]> = {},
  validExtensions?: string[],
): TechRules {
  return compilePatternSet(
    PatternSetSchema.parse({
      schemaVersion: '2.0',
      version: 1,
      createdAt: '2026-01-01T00:00:00Z',
      patterns: [],
      techValidation: { validRepoPaths, ...(validExtensions && { validExtensions }) },
    }),
  ).tech;
}

/** An action-oriented title of exactly `length` code points. */
const titleOf = (length: number): string => `Add ${'x'.repeat(length - 4)}`;

describe('Function: titleQuality', () => {
  it.each([
    [79, true],
    [80, false],
    [81, false],
  ])('a %i-character action title is good: %s (the design: shorter than 80)', (length, good) => {
    // Prepare
    const title = titleOf(length);

    // Act
    const result = titleQuality(title);

    // Assess
    expect(title).toHaveLength(length);
    expect(result).toBe(good);
  });

  it('counts code points, as Python does: 79 emoji are 158 UTF-16 units but 79 characters', () => {
    expect(titleQuality(`Fix ${'😀'.repeat(75)}`)).toBe(true);
    expect(titleQuality(`Fix ${'😀'.repeat(76)}`)).toBe(false);
  });

  it.each(['add', 'fix', 'update', 'improve', 'enable', 'implement'])(
    'accepts a title starting with "%s", in any case',
    (word) => {
      expect(titleQuality(`${word} CSV export`)).toBe(true);
      expect(titleQuality(`${word.toUpperCase()} CSV export`)).toBe(true);
    },
  );

  it('takes the action word as a plain prefix, as the design does', () => {
    expect(titleQuality('Additional CSV columns')).toBe(true);
    expect(titleQuality('Export invoices as CSV')).toBe(false);
    expect(titleQuality(' Add CSV export')).toBe(false);
    expect(titleQuality('')).toBe(false);
  });
});

describe('Function: acceptanceCriteriaScore', () => {
  it.each([
    [0, 0],
    [1, 0.2],
    [2, 0.6],
    [3, 1],
    [5, 1],
    [7, 1],
    [8, 0.6],
    [9, 0.6],
    [10, 0.6],
    [11, 0.3],
    [30, 0.3],
  ])('%i criteria score %d', (count, score) => {
    expect(acceptanceCriteriaScore(count)).toBe(score);
  });
});

describe('Function: technicalSpecificity', () => {
  const tech = techRules({ aero: ['packages/', 'infra/'], tack: ['service/'] });

  it.each([
    ['aero packages/billing/invoice.ts', 1],
    ['tack: service/oauth', 1],
    ['aero apps/web', 0.5], // known repository, unknown path
    ['lib/billing/invoice.ts', 0.7], // file-like path
    ['src/app.tsx', 0.7],
    ['billing module', 0.2],
    ['Aero packages/billing', 0.2], // case-sensitive, as in the design
    ['', 0],
  ])('%j scores %d', (area, score) => {
    expect(technicalSpecificity(area, tech)).toBe(score);
  });

  it('lets the first known repository named decide, even when a later one would score higher', () => {
    // Prepare
    const rules = techRules({ aero: ['packages/'], tack: ['service/'] });

    // Act
    const score = technicalSpecificity('aero and tack service/', rules);

    // Assess
    expect(score).toBe(0.5);
  });

  it("takes file-like extensions from the pattern set's validExtensions", () => {
    // Prepare
    const rules = techRules({}, ['.rb']);

    // Act, Assess
    expect(technicalSpecificity('app/models/user.rb', rules)).toBe(0.7);
    expect(technicalSpecificity('src/app.ts', rules)).toBe(0.2);
  });

  it('reads words as Python does (Unicode letters), with no trailing boundary', () => {
    expect(technicalSpecificity('café/menü.py', tech)).toBe(0.7);
    expect(technicalSpecificity('tools/run.pyc', tech)).toBe(0.7);
    expect(technicalSpecificity('tools/run.PY', tech)).toBe(0.2);
  });
});

describe('Function: hasUserValue', () => {
  it.each([
    'user can',
    'users will',
    'allows',
    'enables',
    'improves',
    'reduces',
    'saves',
    'prevents',
  ])('finds "%s", in any case', (phrase) => {
    expect(hasUserValue(`This ${phrase} things.`)).toBe(true);
    expect(hasUserValue(`THIS ${phrase.toUpperCase()} THINGS.`)).toBe(true);
  });

  it('finds nothing without a value phrase, or in an empty description', () => {
    expect(hasUserValue('Refactor the invoice module.')).toBe(false);
    expect(hasUserValue('')).toBe(false);
  });

  it('takes phrases as substrings, as the design does', () => {
    expect(hasUserValue('The user cannot see it')).toBe(true);
  });
});

describe('Function: isAppropriateScope', () => {
  it.each([
    [49, 3, false],
    [50, 3, true],
    [2000, 3, true],
    [2001, 3, false],
    [100, 1, false],
    [100, 2, true],
    [100, 10, true],
    [100, 11, false],
  ])('a %i-character description with %i criteria is in scope: %s', (length, count, ok) => {
    expect(isAppropriateScope('d'.repeat(length), count)).toBe(ok);
  });

  it('counts code points: 2000 emoji are 4000 UTF-16 units but in scope', () => {
    expect(isAppropriateScope('😀'.repeat(2000), 3)).toBe(true);
    expect(isAppropriateScope('😀'.repeat(2001), 3)).toBe(false);
    expect(isAppropriateScope('😀'.repeat(49), 3)).toBe(false);
  });
});

describe('Function: scoreStory', () => {
  const weights = {
    titleQuality: 1,
    acCount: 1,
    techSpecificity: 1.2,
    userFocus: 1,
    scopeCheck: 0.8,
  };
  const tech = techRules({ aero: ['packages/'] });
  const good = readStoryFields({
    title: 'Add CSV export to invoices',
    description: 'Finance users will export invoices as CSV, which saves a day at month end.',
    acceptance_criteria: ['a', 'b', 'c'],
    technical_area: 'aero packages/billing',
  });

  it('gives every point and every reason to a story that meets all five heuristics', () => {
    // Act
    const outcome = scoreStory(good, weights, tech);

    // Assess
    expect(outcome).toEqual({
      fraction: 1,
      reasons: ['good_title', 'good_ac', 'good_tech', 'clear_user_value', 'appropriate_scope'],
    });
  });

  it('weights each heuristic by scoringWeights', () => {
    // Prepare: only the technical area falls short (0.5 of 1.2 points).
    const story = { ...good, technicalArea: 'aero apps/web' };

    // Act
    const outcome = scoreStory(story, weights, tech);

    // Assess
    expect(outcome.fraction).toBeCloseTo((5 - 1.2 + 1.2 * 0.5) / 5, 10);
    expect(outcome.reasons).not.toContain('good_tech');
  });

  it('gives the good_ac reason above 0.5, so also for 2 and for 8–10 criteria (0.6)', () => {
    const eight = { ...good, acceptanceCriteria: Array.from({ length: 8 }, () => 'c') };
    expect(scoreStory(eight, weights, tech).reasons).toContain('good_ac');
  });

  it('claims nothing (0.5) when every weight is zero', () => {
    const zero = { titleQuality: 0, acCount: 0, techSpecificity: 0, userFocus: 0, scopeCheck: 0 };
    expect(scoreStory(good, zero, tech).fraction).toBe(0.5);
  });
});

describe('Function: readStoryFields', () => {
  it('reads a mistyped or null field as empty, as the design reads story.get(field, default), and a missing one as absent', () => {
    // Act
    const fields = readStoryFields({
      title: 7,
      acceptance_criteria: ['a', 3, 'b'],
      technical_area: null,
      services: 'billing',
    });

    // Assess
    expect(fields).toEqual({
      title: '',
      description: undefined,
      acceptanceCriteria: ['a', 'b'],
      technicalArea: '',
      services: [],
      sentence: '',
    });
    expect(readStoryFields(null).title).toBeUndefined();
  });

  it('reads a bare string as a one-sentence story: its description, with no title, criteria or technical area', () => {
    // Act
    const fields = readStoryFields('As a driver, I want alerts, so that I brake in time.');

    // Assess
    expect(fields).toEqual({
      title: undefined,
      description: 'As a driver, I want alerts, so that I brake in time.',
      acceptanceCriteria: undefined,
      technicalArea: undefined,
      services: [],
      sentence: 'As a driver, I want alerts, so that I brake in time.',
    });
  });

  it('joins the fields patterns are matched against, one per line', () => {
    // Prepare
    const fields = readStoryFields({
      id: 'story_1',
      title: 'T',
      description: 'D',
      acceptance_criteria: ['A1', 'A2'],
      technical_area: 'X',
      services: ['S'],
      source_conversations: ['conversation_9'],
    });

    // Act
    const text = storyText(fields);

    // Assess
    expect(text).toBe('T\nD\nA1\nA2\nX\nS');
  });
});

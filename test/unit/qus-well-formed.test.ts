import { describe, expect, it } from 'vitest';
import { parseStory, partText } from '../../lambdas/core/cheap/qus/story-parts.js';
import { detectFullSentence, detectWellFormed } from '../../lambdas/core/cheap/qus/well-formed.js';
import { ustaiStory } from '../support/ustai-stories.js';

/** Real, from the UStAI fixture: a well-formed story whose ends has no "so that". */
const A1US2Ge =
  'As a city planner, I want a traffic management system that uses AI and connected vehicles to optimize traffic flow and reduce congestion.';
/** Real, from the fixture: "I need" and an ends after a comma. */
const A17US2Ge =
  'As a medical researcher, I need to analyze the effectiveness of using LAMSTAR neural networks and wavelet transform-based preprocessing in predicting sleep disturbances, to advance understanding and technology in sleep medicine.';

describe('Function: parseStory', () => {
  it('finds role, means and ends, and the template of their markers', () => {
    const parts = parseStory(
      'As an accountant, I want CSV exports, so that I close the month fast.',
    );
    expect([parts.role, parts.means, parts.ends].map((part) => partText(parts, part))).toEqual([
      'accountant',
      'CSV exports',
      'so that I close the month fast',
    ]);
    expect(parts.template).toEqual({ role: 'as an', means: 'i want', ends: 'so that' });
  });

  it('reads real variants: no ends, "I need", an ends after a comma', () => {
    expect(ustaiStory(A1US2Ge).id).toBe('A1US2Ge');
    expect(ustaiStory(A17US2Ge).id).toBe('A17US2Ge');
    expect(parseStory(A1US2Ge).template).toEqual({ role: 'as a', means: 'i want', ends: null });
    expect(parseStory(A17US2Ge).template.means).toBe('i need');
    const gerund = parseStory(
      'As a driver, I want an AV that can navigate town, giving me greater independence.',
    );
    expect(partText(gerund, gerund.ends)).toBe('giving me greater independence');
    expect(gerund.template.ends).toBe(', -ing');
  });

  it('ends the role at its first comma, so a clause after it is not the role', () => {
    const parts = parseStory(
      'As an analyst, I am worried about cost. I want a cheaper model, so that we save.',
    );
    expect(partText(parts, parts.role)).toBe('analyst');
    expect(partText(parts, parts.means)).toBe('a cheaper model');
  });
});

describe('Function: detectWellFormed', () => {
  it('stays silent when the story has a role and a means', () => {
    expect(detectWellFormed(parseStory(A1US2Ge))).toBeNull();
  });

  it('fires without a role or without a means, quoting the opening words', () => {
    expect(detectWellFormed(parseStory('Make the login page faster for everyone.'))).toEqual({
      criterion: 'well-formed',
      evidence: 'Make the login page faster for',
    });
    expect(detectWellFormed(parseStory('As a user, login should be fast.'))?.criterion).toBe(
      'well-formed',
    );
    expect(detectWellFormed(parseStory('I want to log in with GitHub.'))?.criterion).toBe(
      'well-formed',
    );
  });
});

describe('Function: detectFullSentence', () => {
  it('stays silent on one sentence that starts with a capital and ends with a full stop', () => {
    expect(detectFullSentence(A1US2Ge)).toBeNull();
    expect(detectFullSentence('As a user, I want exports (CSV).')).toBeNull();
  });

  it('fires on a lower-case start, a missing full stop or a list over lines', () => {
    expect(detectFullSentence('as a user, I want exports.')?.evidence).toBe('as');
    expect(detectFullSentence('As a user, I want CSV exports')?.evidence).toBe('want CSV exports');
    expect(detectFullSentence('As a user, I want:\n- exports\n- imports.')?.evidence).toBe(
      '- exports - imports.',
    );
  });
});

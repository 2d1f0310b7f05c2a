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

/** Real, from the fixture: no means ("I am interested in …"); people labelled it no_feature. */
const A34US9Ge =
  "As a researcher, I am interested in publishing the findings from our evaluations of various machine learning techniques on IDS, contributing to the cybersecurity community's understanding of effective defenses against malware.";
/** Real, from the fixture: the story stops without a full stop. */
const A41US10Ll =
  'As a user of a food recognition system, I want the system to provide a comprehensive representation of the food, including both global and local features, so that I can make informed decisions about my diet and nutrition';

describe('Function: detectWellFormed', () => {
  it('fires on a real story without a means, quoting its opening', () => {
    expect(ustaiStory(A34US9Ge).id).toBe('A34US9Ge');
    expect(detectWellFormed(parseStory(A34US9Ge))).toEqual({
      criterion: 'well-formed',
      evidence: 'As a researcher, I am interested',
    });
  });

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

  it('fires on a real story that stops without a full stop', () => {
    expect(ustaiStory(A41US10Ll).id).toBe('A41US10Ll');
    expect(detectFullSentence(A41US10Ll)).toEqual({
      criterion: 'full-sentence',
      evidence: 'diet and nutrition',
    });
  });

  it('fires on a lower-case start, a missing full stop or a list over lines', () => {
    expect(detectFullSentence('as a user, I want exports.')?.evidence).toBe('as');
    expect(detectFullSentence('As a user, I want CSV exports')?.evidence).toBe('want CSV exports');
    expect(detectFullSentence('As a user, I want:\n- exports\n- imports.')?.evidence).toBe(
      '- exports - imports.',
    );
  });
});

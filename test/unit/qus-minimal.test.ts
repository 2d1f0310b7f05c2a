import { describe, expect, it } from 'vitest';
import { detectMinimal } from '../../lambdas/core/cheap/qus/minimal.js';
import { ustaiStory } from '../support/ustai-stories.js';

/** Real stories from the UStAI fixture, with the `minimal` label people gave them. */
const LABELLED = {
  /** brackets */
  A1US5Ll:
    'As a business owner, I want to explore the new market opportunities and revenue streams that Autonomous Vehicles (AVs) can offer, so that I can expand my business and stay competitive in the industry.',
  /** example */
  A3US8Ll:
    'As a researcher, I want to analyze the performance of our framework on detecting related behaviors such as sarcasm, racism, and sexism, so that I can refine our approach and improve detection accuracy.',
  /** punctuation: two sentences */
  A9US3Ge:
    'As a healthcare administrator, I am concerned about the computational cost of diagnostic tools. I want a system that uses incremental learning to reduce processing time for heart disease prediction.',
  /** minimal */
  A17US10O1:
    'As a quality assurance specialist, I want to monitor the prediction system’s performance metrics, so that I can ensure its reliability and accuracy in clinical settings.',
} as const;

describe('Function: detectMinimal', () => {
  it('quotes real stories from the fixture, with the labels it claims', () => {
    const labels = Object.values(LABELLED).map((story) => {
      const { id, minimal } = ustaiStory(story);
      return [id, minimal];
    });
    expect(labels).toEqual([
      ['A1US5Ll', 'brackets'],
      ['A3US8Ll', 'example'],
      ['A9US3Ge', 'punctuation'],
      ['A17US10O1', 'minimal'],
    ]);
  });

  it('fires on brackets, quoting them', () => {
    expect(detectMinimal(LABELLED.A1US5Ll)).toEqual({ criterion: 'minimal', evidence: '(AVs)' });
  });

  it('fires on an example or a note', () => {
    expect(detectMinimal(LABELLED.A3US8Ll)?.evidence).toBe('such as');
    expect(detectMinimal('As a clerk, I want exports (e.g. CSV).')?.evidence).toBe('(e.g. CSV)');
    expect(detectMinimal('As a clerk, I want exports, e.g. CSV.')?.evidence).toBe('e.g.');
    expect(detectMinimal('As a clerk, I want CSV, PDF, etc.')?.evidence).toBe('etc.');
  });

  it('fires on a second sentence, quoting its opening words', () => {
    expect(detectMinimal(LABELLED.A9US3Ge)?.evidence).toBe('I want a system that uses');
  });

  it('stays silent on one sentence with nothing more, and on abbreviations and decimals', () => {
    expect(detectMinimal(LABELLED.A17US10O1)).toBeNull();
    expect(detectMinimal('As a patient, I want Dr. Smith to see my 2.5 MB scan.')).toBeNull();
    expect(detectMinimal('As a clerk, I want invoices.  ')).toBeNull();
  });
});

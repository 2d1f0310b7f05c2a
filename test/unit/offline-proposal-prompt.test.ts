/**
 * How the offline proposer reads its prompt and the judge's reasoning
 * (`local/offline-judge/proposal-prompt.ts`, `candidates.ts`).
 */
import { describe, expect, it } from 'vitest';
import { candidatesIn } from '../../local/offline-judge/candidates.js';
import { isCovered, readProposalPrompt } from '../../local/offline-judge/proposal-prompt.js';
import { proposalPrompt } from '../support/offline-judge.js';

describe('Function: readProposalPrompt', () => {
  it('reads the scores, the gap, the reasoning and what the patterns and signals match', () => {
    // Prepare
    const prompt = proposalPrompt(
      4.5,
      3,
      'credits "so that"',
      '- p_role (good): as a | /\\bwe\\b/',
    );

    // Act
    const question = readProposalPrompt(prompt);

    // Assess
    expect(question).toEqual({
      judgeScore: 4.5,
      cheapScore: 3,
      gap: 1.5,
      reasoning: 'credits "so that"',
      known: { terms: ['good_ac', 'as a'], regexes: [/\bwe\b/i] },
      text: undefined,
      usedCategories: undefined,
    });
  });

  it('skips a listed regex it cannot compile', () => {
    // Act
    const question = readProposalPrompt(proposalPrompt(4, 3, 'ok', '- /(unclosed/'));

    // Assess
    expect(question?.known.regexes).toEqual([]);
  });

  it('returns undefined for another prompt', () => {
    expect(readProposalPrompt('Judge this story.')).toBeUndefined();
  });
});

describe('Function: isCovered', () => {
  it('is true when a term occurs in the phrase as whole words, or a regex matches it', () => {
    // Prepare
    const known = { terms: ['as a'], regexes: [/parent/i] };

    // Act / Assess
    expect(isCovered('As a user', known)).toBe(true);
    expect(isCovered('the grandparent', known)).toBe(true);
    expect(isCovered('has another', known)).toBe(false);
  });
});

describe('Function: candidatesIn', () => {
  it('reads quotes with their criterion and score, a criticised one capped at 3', () => {
    // Prepare
    const reasoning =
      'clear user problem 5/5 (names the user "As a parent"); scope 4/5 (title joins concerns with "and")';

    // Act
    const candidates = candidatesIn(reasoning);

    // Assess
    expect(candidates).toEqual([
      {
        phrase: 'As a',
        quoted: 'As a parent',
        criterion: 'clear user problem',
        score: 5,
        general: true,
      },
      {
        phrase: 'As a parent',
        quoted: 'As a parent',
        criterion: 'clear user problem',
        score: 5,
        general: false,
      },
      { phrase: 'and', quoted: 'and', criterion: 'scope', score: 3, general: false },
    ]);
  });

  it('takes every quote of free-form reasoning, unscored', () => {
    expect(candidatesIn('The pain is “stuck waiting” here.')).toEqual([
      { phrase: 'stuck waiting', quoted: 'stuck waiting', general: false },
    ]);
  });
});

import { describe, expect, it } from 'vitest';
import {
  resolveEvaluationConfig,
  DEFAULT_EVALUATION_CONFIG,
} from '../../lambdas/core/schemas/evaluation-config.js';
import { learnedPatternId } from '../../lambdas/core/patterns/pattern-identity.js';
import {
  kindOf,
  parseProposalAnswer,
  proposalToPattern,
  type PatternProposalAnswer,
  type ProposalContext,
} from '../../lambdas/core/patterns/proposals/answer.js';
import { PatternSchema } from '../../lambdas/core/schemas/evaluation.js';
import { makePattern } from '../support/evaluation.js';
import { USER_CAN_PATTERN, VAGUE_PATTERN } from '../support/proposal-stories.js';

const NOW = new Date('2026-01-16T14:30:00Z');
const config = DEFAULT_EVALUATION_CONFIG;

const userCan = USER_CAN_PATTERN;
const vague = VAGUE_PATTERN;

describe('Function: parseProposalAnswer', () => {
  const answer = { category: 'value_phrases', pattern: 'frustrated when', rationale: 'pain' };

  it('reads a bare JSON object, a fenced one, and one fence inside prose', () => {
    const json = JSON.stringify(answer);
    expect(parseProposalAnswer(json)).toEqual({ ok: true, answer });
    expect(parseProposalAnswer(`\`\`\`json\n${json}\n\`\`\``)).toEqual({ ok: true, answer });
    expect(parseProposalAnswer(`Here it is:\n\`\`\`json\n${json}\n\`\`\`\nThanks.`)).toEqual({
      ok: true,
      answer,
    });
  });

  it('keeps an optional kind and trims the strings', () => {
    const parsed = parseProposalAnswer(
      JSON.stringify({ ...answer, pattern: '  stuck  ', kind: 'keyword' }),
    );
    expect(parsed).toEqual({ ok: true, answer: { ...answer, pattern: 'stuck', kind: 'keyword' } });
  });

  it('refuses an invalid answer with the zod path', () => {
    expect(parseProposalAnswer('{"category":"x","rationale":"y"}')).toEqual({
      ok: false,
      problem: expect.stringMatching(/^pattern: /),
    });
    expect(parseProposalAnswer(JSON.stringify({ ...answer, pattern: 'x' }))).toEqual({
      ok: false,
      problem: expect.stringMatching(/^pattern: Too small/),
    });
    expect(parseProposalAnswer(JSON.stringify({ ...answer, kind: 'glob' }))).toEqual({
      ok: false,
      problem: expect.stringMatching(/^kind: /),
    });
  });

  it('refuses what is not one JSON object', () => {
    expect(parseProposalAnswer('')).toEqual({ ok: false, problem: 'the answer is empty' });
    expect(parseProposalAnswer('I propose "so that".')).toEqual({
      ok: false,
      problem: expect.stringContaining('not valid JSON'),
    });
    expect(parseProposalAnswer('[1]')).toEqual({
      ok: false,
      problem: 'the answer is JSON but not an object',
    });
  });
});

describe('Function: kindOf', () => {
  it('follows the answer, else reads regex syntax, one word, several words', () => {
    expect(kindOf({ pattern: 'so that', kind: 'regex' })).toBe('regex');
    expect(kindOf({ pattern: '\\bstuck\\b' })).toBe('regex');
    expect(kindOf({ pattern: 'stuck' })).toBe('keyword');
    expect(kindOf({ pattern: 'frustrated when' })).toBe('phrase');
    expect(kindOf({ pattern: 'e.g. invoices' })).toBe('phrase');
  });
});

describe('Function: proposalToPattern', () => {
  const context: ProposalContext = {
    direction: 'good',
    target: 'document:user_story',
    iteration: 4,
    now: NOW,
    existing: [userCan, vague],
    artefactId: 'story_1',
  };
  const answer = (overrides: Partial<PatternProposalAnswer> = {}): PatternProposalAnswer => ({
    category: 'value_phrases',
    pattern: 'Frustrated  When',
    rationale: 'The judge credits a named pain point.',
    ...overrides,
  });

  it('makes a provisional pattern with a stable id', () => {
    // Act
    const converted = proposalToPattern(answer(), context, config);

    // Assess
    expect(converted.ok).toBe(true);
    if (!converted.ok) return;
    expect(PatternSchema.parse(converted.pattern)).toEqual(converted.pattern);
    expect(converted.pattern).toMatchObject({
      id: learnedPatternId({ term: 'frustrated when' }),
      type: 'good',
      category: 'value_phrases',
      phrases: ['frustrated when'],
      keywords: [],
      regexes: [],
      appliesTo: ['document:user_story'],
      weight: 1,
      source: 'llm_proposal',
      status: 'provisional',
      learnedIteration: 4,
      discoveredAt: '2026-01-16T14:30:00.000Z',
      timesTested: 0,
    });
    expect(converted.pattern.id).toMatch(/^p_frustrated_when_[0-9a-f]{8}$/);
    expect(converted.pattern.description).toContain('named pain point');
    expect(proposalToPattern(answer({ pattern: 'frustrated when' }), context, config)).toEqual(
      converted,
    );
  });

  it('takes the weight from the configuration', () => {
    const converted = proposalToPattern(
      answer(),
      context,
      resolveEvaluationConfig({ proposals: { initialWeight: 0.7 } }),
    );
    expect(converted.ok && converted.pattern.weight).toBe(0.7);
  });

  it('makes a keyword of one word and keeps a regex that compiles and is safe', () => {
    const keyword = proposalToPattern(answer({ pattern: 'Stuck' }), context, config);
    expect(keyword.ok && keyword.pattern.keywords).toEqual(['stuck']);
    const regex = proposalToPattern(
      answer({ pattern: '\\bfrustrated (when|by)\\b' }),
      context,
      config,
    );
    expect(regex.ok && regex.pattern.regexes).toEqual(['\\bfrustrated (when|by)\\b']);
  });

  it('refuses a pathological regex, a broken one, and one matching everything', () => {
    expect(proposalToPattern(answer({ pattern: '(a+)+b' }), context, config)).toEqual({
      ok: false,
      reason: expect.stringContaining('nested unbounded quantifiers'),
    });
    expect(proposalToPattern(answer({ pattern: '(stuck' }), context, config)).toEqual({
      ok: false,
      reason: expect.stringContaining('not a valid regular expression'),
    });
    expect(proposalToPattern(answer({ pattern: 'x?', kind: 'regex' }), context, config)).toEqual({
      ok: false,
      reason: expect.stringContaining('matches the empty string'),
    });
  });

  it('drops a duplicate of an existing pattern’s terms, whatever its id or status', () => {
    expect(proposalToPattern(answer({ pattern: 'User can' }), context, config)).toEqual({
      ok: false,
      reason: 'duplicates p_user_can (active)',
    });
    const rejected = makePattern({
      id: learnedPatternId({ term: 'frustrated when' }),
      phrases: ['frustrated when'],
      status: 'rejected',
    });
    expect(proposalToPattern(answer(), { ...context, existing: [rejected] }, config)).toEqual({
      ok: false,
      reason: `duplicates ${rejected.id} (rejected)`,
    });
  });

  it('refuses a category that contradicts the direction of the gap', () => {
    expect(
      proposalToPattern(answer({ category: 'bad_story_indicators' }), context, config),
    ).toEqual({ ok: false, reason: expect.stringContaining('names bad signals') });
    const bad = proposalToPattern(
      answer({ category: 'bad_story_indicators' }),
      { ...context, direction: 'bad' },
      config,
    );
    expect(bad.ok && bad.pattern.type).toBe('bad');
    const neutral = proposalToPattern(answer({ category: 'scope' }), context, config);
    expect(neutral.ok && neutral.pattern.type).toBe('good');
  });
});

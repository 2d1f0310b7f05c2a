import { describe, expect, it } from 'vitest';
import { InvalidInputError } from '../../lambdas/core/errors.js';
import { compilePatternSet, targetOf } from '../../lambdas/core/cheap/compile.js';
import { PatternSetSchema, type Pattern } from '../../lambdas/core/schemas/evaluation.js';
import { makePattern } from '../support/evaluation.js';

const setOf = (patterns: Pattern[], version = 3) =>
  PatternSetSchema.parse({
    schemaVersion: '2.0',
    version,
    createdAt: '2026-01-01T00:00:00Z',
    patterns,
  });

/** The InvalidInputError `work` throws. */
function refusal(work: () => unknown): InvalidInputError {
  try {
    work();
  } catch (error) {
    if (error instanceof InvalidInputError) return error;
    throw error;
  }
  throw new Error('expected an InvalidInputError');
}

describe('Function: compilePatternSet', () => {
  it.each([
    ['a syntax error', 'as an? (admin', 'not a valid regular expression'],
    ['a regex that matches the empty string', 'x*', 'matches the empty string'],
    ['nested unbounded quantifiers', '(\\w+\\s?)+$', 'nested unbounded quantifiers'],
    ['a regex longer than 500 characters', 'a'.repeat(501), 'longer than 500 characters'],
  ])('refuses %s, naming the pattern and the reason', (_, regex, reason) => {
    // Prepare
    const set = setOf([
      makePattern({ id: 'p_ok', regexes: ['ok'] }),
      makePattern({ id: 'p_bad', regexes: [regex] }),
    ]);

    // Act
    const error = refusal(() => compilePatternSet(set));

    // Assess
    expect(error.name).toBe('InvalidInputError');
    expect(error.code).toBe('INVALID_INPUT');
    expect(error.message).toContain('pattern set v3 is invalid');
    expect(error.issues).toHaveLength(1);
    expect(error.issues[0]).toContain('patterns[1] (p_bad).regexes[0]');
    expect(error.issues[0]).toContain(reason);
  });

  it('lists every problem at once: duplicate ids, unknown targets, half surrogate pairs', () => {
    // Prepare
    const set = setOf([
      makePattern({ id: 'p_a' }),
      makePattern({ id: 'p_a' }),
      makePattern({ id: 'p_b', appliesTo: ['story'] }),
      makePattern({ id: 'p_c', keywords: ['\ud83d'] }),
    ]);

    // Act
    const error = refusal(() => compilePatternSet(set));

    // Assess
    expect(error.issues).toEqual([
      'patterns[1] (p_a).id: duplicate of patterns[0]',
      'patterns[2] (p_b).appliesTo: "story" is neither "change" nor "document:<type>"',
      'patterns[3] (p_c).keywords[0]: holds half of a surrogate pair',
    ]);
  });

  it('does not validate or use rejected and pruned patterns', () => {
    // Prepare
    const set = setOf([
      makePattern({ id: 'p_active', keywords: ['a'], status: 'active' }),
      makePattern({ id: 'p_provisional', keywords: ['a'], status: 'provisional' }),
      makePattern({ id: 'p_rejected', regexes: ['('], status: 'rejected' }),
      makePattern({ id: 'p_pruned', regexes: ['x*'], status: 'pruned' }),
    ]);

    // Act
    const compiled = compilePatternSet(set);

    // Assess
    expect(compiled.documents.get('user_story')?.ids).toEqual(['p_active', 'p_provisional']);
  });

  it('builds one matcher per target, each with the patterns that apply to it, in set order', () => {
    // Prepare
    const set = setOf([
      makePattern({ id: 'p_story', appliesTo: ['document:user_story'] }),
      makePattern({ id: 'p_both', appliesTo: ['change', 'document:user_story', 'change'] }),
      makePattern({ id: 'p_change', appliesTo: ['change'] }),
      makePattern({ id: 'p_spec', appliesTo: ['document:api_spec'] }),
    ]);

    // Act
    const compiled = compilePatternSet(set);

    // Assess
    expect(compiled.version).toBe(3);
    expect(compiled.change?.ids).toEqual(['p_both', 'p_change']);
    expect(compiled.documents.get('user_story')?.ids).toEqual(['p_story', 'p_both']);
    expect(compiled.documents.get('api_spec')?.ids).toEqual(['p_spec']);
    expect([...compiled.documents.keys()]).toEqual(['user_story', 'api_spec']);
  });

  it('compiles an empty set', () => {
    const compiled = compilePatternSet(setOf([]));
    expect(compiled.change).toBeUndefined();
    expect(compiled.documents.size).toBe(0);
  });

  it('falls back to a sparse automaton past maxDenseCells, with the same results', () => {
    // Prepare
    const set = setOf([makePattern({ id: 'p_a', keywords: ['export'], phrases: ['as csv'] })]);
    const text = 'Export invoices as CSV';

    // Act
    const dense = compilePatternSet(set).documents.get('user_story')!;
    const sparse = compilePatternSet(set, { maxDenseCells: 0 }).documents.get('user_story')!;

    // Assess
    expect([...sparse.run(text, text.toLowerCase())]).toEqual([0]);
    expect([...dense.run(text, text.toLowerCase())]).toEqual([0]);
  });
});

describe('Function: targetOf', () => {
  it('names the target a pattern must apply to', () => {
    expect(targetOf({ kind: 'change' })).toBe('change');
    expect(targetOf({ kind: 'document', documentType: 'user_story' })).toBe('document:user_story');
  });
});

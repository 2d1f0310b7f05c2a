import { describe, expect, it } from 'vitest';
import { InvalidInputError } from '../../lambdas/core/errors.js';
import { bundleOf, parseBundle } from '../../lambdas/core/learning/bundle.js';
import { makeProjectRule, makeRegistryPattern } from '../support/learning-records.js';

const EXPORTED_AT = '2026-03-01T12:00:00Z';

function bundleText(overrides: Record<string, unknown> = {}): string {
  const bundle = bundleOf({
    exportedAt: EXPORTED_AT,
    scopes: ['org'],
    patterns: [makeRegistryPattern()],
    rules: [makeProjectRule()],
  });
  return JSON.stringify({ ...bundle, ...overrides });
}

/** The issues parseBundle refused `text` with (fails the test when it accepted it). */
function issuesOf(text: string): readonly string[] {
  try {
    parseBundle(text, 'patterns.json');
  } catch (error) {
    expect(error).toBeInstanceOf(InvalidInputError);
    expect((error as Error).message).toMatch(/^patterns\.json is invalid:/);
    return (error as InvalidInputError).issues;
  }
  throw new Error('the bundle was accepted');
}

describe('Function: parseBundle', () => {
  it('reads back what bundleOf wrote', () => {
    // Prepare
    const text = bundleText();

    // Act
    const bundle = parseBundle(text, 'patterns.json');

    // Assess
    expect(bundle).toEqual(JSON.parse(text));
    expect(bundle.patterns[0]?.patternId).toBe('pat-error-null-check-001');
    expect(bundle.rules?.[0]?.ruleId).toBe('r-typecheck-ts2304');
  });

  it('names every bad path at once, unknown keys with the nearest known one', () => {
    // Prepare
    const pattern = { ...makeRegistryPattern(), successRate: 2, tagz: ['x'] };
    const text = bundleText({ patterns: [pattern, { ...pattern, type: 'bogus' }] });

    // Act
    const issues = issuesOf(text);

    // Assess
    expect(issues).toEqual(
      expect.arrayContaining([
        'patterns[0].successRate: Too big: expected number to be <=1',
        'patterns[0].tagz: unknown key — did you mean tags?',
        expect.stringMatching(/^patterns\[1\]\.type: /),
      ]),
    );
  });

  it('refuses another format, and another version saying which versions are read', () => {
    expect(issuesOf(bundleText({ format: 'learned_patterns' }))).toEqual([
      'format: expected "ralph-pattern-bundle", got "learned_patterns": not a pattern bundle (`ralph patterns export` writes one)',
    ]);
    expect(issuesOf(bundleText({ version: 2, patterns: 'whatever' }))).toEqual([
      'version: 2 is not read here; this ralph reads bundle version 1',
    ]);
    expect(issuesOf('[]')).toEqual([
      '(root): expected a pattern bundle (an object with format "ralph-pattern-bundle")',
    ]);
    expect(issuesOf('{"format": ')[0]).toMatch(/^\(root\): not valid JSON/);
  });

  it('refuses a pattern or a rule twice, naming both places', () => {
    // Prepare
    const pattern = makeRegistryPattern();
    const text = bundleText({
      patterns: [pattern, makeRegistryPattern({ patternId: 'other' }), pattern],
      rules: [makeProjectRule(), makeProjectRule()],
    });

    // Act
    const issues = issuesOf(text);

    // Assess
    expect(issues).toEqual([
      'patterns[2].patternId: the same as patterns[0] (org pat-error-null-check-001); a bundle holds each once',
      'rules[1].ruleId: the same as rules[0] (shop r-typecheck-ts2304); a bundle holds each once',
    ]);
  });
});

describe('Function: bundleOf', () => {
  it('orders patterns by scope then id and rules by project then id', () => {
    // Act
    const bundle = bundleOf({
      exportedAt: EXPORTED_AT,
      scopes: ['org', 'project:shop'],
      projectId: 'shop',
      patterns: [
        makeRegistryPattern({ scope: 'project:shop', patternId: 'a' }),
        makeRegistryPattern({ patternId: 'b' }),
        makeRegistryPattern({ patternId: 'a' }),
      ],
      rules: [makeProjectRule({ ruleId: 'z' }), makeProjectRule({ ruleId: 'y' })],
    });

    // Assess
    expect(bundle.patterns.map((p) => `${p.scope} ${p.patternId}`)).toEqual([
      'org a',
      'org b',
      'project:shop a',
    ]);
    expect(bundle.rules?.map((rule) => rule.ruleId)).toEqual(['y', 'z']);
    expect(bundle.source).toEqual({ projectId: 'shop', scopes: ['org', 'project:shop'] });
  });
});

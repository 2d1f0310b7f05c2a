import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { editDistance, knownKeysAt, nearestKey } from '../../lambdas/core/shared/unknown-keys.js';
import { parseOrThrow } from '../../lambdas/core/shared/validation.js';
import { StartRunBodySchema } from '../../lambdas/core/schemas/run-views.js';

describe('Function: nearestKey', () => {
  it('names the known key a typo is closest to', () => {
    expect(nearestKey('gatez', ['agent', 'gates', 'limits'])).toBe('gates');
    expect(nearestKey('Limts', ['agent', 'gates', 'limits'])).toBe('limits');
  });

  it('names none when nothing is close enough to be a typo', () => {
    expect(nearestKey('colour', ['agent', 'gates', 'limits'])).toBeUndefined();
    expect(nearestKey('x', [])).toBeUndefined();
  });

  it('counts edits as Levenshtein does', () => {
    expect(editDistance('kitten', 'sitting')).toBe(3);
    expect(editDistance('', 'abc')).toBe(3);
  });
});

describe('Function: knownKeysAt', () => {
  const schema = z.strictObject({
    a: z.strictObject({ inner: z.number() }).optional(),
    list: z.array(z.strictObject({ item: z.string() })),
    either: z.union([z.strictObject({ one: z.number() }), z.strictObject({ two: z.number() })]),
  });

  it('reads the keys of the object at a path through optionals, arrays and unions', () => {
    expect(knownKeysAt(schema, [])).toEqual(['a', 'list', 'either']);
    expect(knownKeysAt(schema, ['a'])).toEqual(['inner']);
    expect(knownKeysAt(schema, ['list', 3])).toEqual(['item']);
    expect(knownKeysAt(schema, ['either'])).toEqual(['one', 'two']);
  });
});

describe('Function: parseOrThrow, on unknown keys', () => {
  it('reports each unknown key at its own path, with the nearest known key', () => {
    expect(() =>
      parseOrThrow(
        StartRunBodySchema,
        { repo: 'https://x/y', prd: undefined, projct: 'p' },
        'body',
      ),
    ).toThrow(/projct: unknown key — did you mean project\?/);
  });
});

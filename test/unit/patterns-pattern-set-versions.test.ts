import { Buffer } from 'node:buffer';
import { describe, expect, it } from 'vitest';
import { InvalidInputError } from '../../lambdas/core/errors.js';
import {
  canonicalJson,
  checkPatternSetBody,
  chooseFallback,
  countByStatus,
  fallbackOrder,
  fnv1a64Hex,
  parsePatternSetDraft,
  patternSetChecksum,
  stampPatternSet,
  versionMetadata,
  type BodyCheck,
  type VersionLineage,
} from '../../lambdas/core/patterns/pattern-set-versions.js';
import type { PatternSet } from '../../lambdas/core/schemas/evaluation.js';
import { makePattern } from '../support/evaluation.js';

const STAMP = { version: 3, parentVersion: 2, createdAt: '2026-02-01T10:00:00Z', reason: 'test' };

function content(overrides: Record<string, unknown> = {}) {
  return parsePatternSetDraft({
    schemaVersion: '2.0',
    patterns: [
      makePattern({ id: 'p_001', keywords: ['user can'] }),
      makePattern({ id: 'p_002', type: 'bad', status: 'provisional', keywords: ['vague'] }),
    ],
    ...overrides,
  });
}

function stamped(overrides: Partial<typeof STAMP> = {}): PatternSet {
  return stampPatternSet(content(), { ...STAMP, ...overrides });
}

/** FNV-1a 64 written the obvious way, with BigInt over Node's UTF-8 bytes. */
function referenceFnv(text: string): string {
  let hash = 0xcbf29ce484222325n;
  for (const byte of Buffer.from(text, 'utf8')) {
    hash ^= BigInt(byte);
    hash = (hash * 0x100000001b3n) & 0xffffffffffffffffn;
  }
  return hash.toString(16).padStart(16, '0');
}

function issuesOf(action: () => unknown): readonly string[] {
  try {
    action();
  } catch (error) {
    if (error instanceof InvalidInputError) return error.issues;
    throw error;
  }
  throw new Error('expected InvalidInputError');
}

describe('Function: fnv1a64Hex', () => {
  it.each([
    ['', 'cbf29ce484222325'],
    ['a', 'af63dc4c8601ec8c'],
    ['foobar', '85944171f73967e8'],
  ])('matches the published test vector for %j', (text, expected) => {
    // Act & Assess
    expect(fnv1a64Hex(text)).toBe(expected);
  });

  it.each([
    ['two-byte characters', 'Grüße, naïve café'],
    ['three-byte characters', '日本語のテキスト ✓ €'],
    ['four-byte characters', 'emoji 😀🚀 and 𝄞'],
    [
      'every low byte value',
      Array.from({ length: 128 }, (_, code) => String.fromCharCode(code)).join(''),
    ],
    ['a long text whose halves carry often', 'x'.repeat(10_000) + '\uffff'.repeat(100)],
  ])('agrees with a BigInt reference over UTF-8 for %s', (_label, text) => {
    // Act & Assess
    expect(fnv1a64Hex(text)).toBe(referenceFnv(text));
  });
});

describe('Function: canonicalJson', () => {
  it('sorts keys at every depth, so key order does not change the text', () => {
    // Act
    const one = canonicalJson({ b: 1, a: { d: [1, { z: 1, y: 2 }], c: 'x' } });
    const other = canonicalJson({ a: { c: 'x', d: [1, { y: 2, z: 1 }] }, b: 1 });

    // Assess
    expect(one).toBe('{"a":{"c":"x","d":[1,{"y":2,"z":1}]},"b":1}');
    expect(other).toBe(one);
  });

  it('leaves out undefined members and writes undefined or non-finite entries as null', () => {
    // Act & Assess
    expect(canonicalJson({ a: undefined, b: [undefined, Number.NaN, Infinity, null] })).toBe(
      '{"b":[null,null,null,null]}',
    );
  });

  it('keeps array order, which is meaningful', () => {
    // Act & Assess
    expect(canonicalJson([2, 1])).not.toBe(canonicalJson([1, 2]));
  });

  it('escapes strings as JSON does', () => {
    // Act & Assess
    expect(canonicalJson({ 'k"': 'line\nbreak' })).toBe('{"k\\"":"line\\nbreak"}');
  });
});

describe('Function: patternSetChecksum', () => {
  it('is 16 hex digits', () => {
    // Act & Assess
    expect(patternSetChecksum(content())).toMatch(/^[0-9a-f]{16}$/);
  });

  it('ignores the stamp: the same content in two versions has one checksum', () => {
    // Prepare
    const v3 = stamped();
    const v7 = stamped({ version: 7, parentVersion: 3, createdAt: '2026-03-01T00:00:00Z' });

    // Act & Assess
    expect(patternSetChecksum(v7)).toBe(patternSetChecksum(v3));
    expect(patternSetChecksum(v3)).toBe(patternSetChecksum(content()));
  });

  it('changes when any content changes', () => {
    // Prepare
    const base = patternSetChecksum(content());
    const reweighted = content({
      patterns: [makePattern({ id: 'p_001', keywords: ['user can'], weight: 1.01 })],
    });

    // Act & Assess
    expect(patternSetChecksum(reweighted)).not.toBe(base);
    expect(patternSetChecksum(content({ scoringWeights: { acCount: 1.5 } }))).not.toBe(base);
    expect(patternSetChecksum(content({ patterns: [...content().patterns].reverse() }))).not.toBe(
      base,
    );
  });
});

describe('Function: parsePatternSetDraft', () => {
  it('applies the defaults and drops a stamp the caller left in', () => {
    // Act
    const parsed = parsePatternSetDraft({ ...stamped(), version: 99 });

    // Assess
    expect(parsed).not.toHaveProperty('version');
    expect(parsed).not.toHaveProperty('createdAt');
    expect(parsed.scoringWeights.techSpecificity).toBe(1.2);
  });

  it.each([
    [2, true],
    [2.0000001, false],
    [0, true],
    [-0.0000001, false],
  ])('accepts a pattern weight of %d: %s (the schema allows 0..2)', (weight, accepted) => {
    // Prepare
    const draft = { schemaVersion: '2.0', patterns: [{ ...makePattern(), weight }] };

    // Act
    const parse = () => parsePatternSetDraft(draft);

    // Assess
    if (accepted) expect(parse().patterns[0]?.weight).toBe(weight);
    else expect(issuesOf(parse)).toEqual([expect.stringMatching(/^patterns\[0\]\.weight: /)]);
  });

  it('names every bad path', () => {
    // Act
    const issues = issuesOf(() =>
      parsePatternSetDraft({ schemaVersion: '1.0', patterns: [{ ...makePattern(), id: 'P-1' }] }),
    );

    // Assess
    expect(issues).toEqual([
      expect.stringMatching(/^schemaVersion: /),
      expect.stringMatching(/^patterns\[0\]\.id: /),
    ]);
  });
});

describe('Function: stampPatternSet', () => {
  it('makes a version that PatternSetSchema accepts, with the stamp', () => {
    // Act
    const set = stamped();

    // Assess
    expect(set).toMatchObject(STAMP);
    expect(set.patterns.map((pattern) => pattern.id)).toEqual(['p_001', 'p_002']);
  });

  it('leaves parentVersion out of the first version', () => {
    // Act
    const set = stampPatternSet(content(), { ...STAMP, version: 1, parentVersion: undefined });

    // Assess
    expect(JSON.parse(JSON.stringify(set))).not.toHaveProperty('parentVersion');
  });

  it('refuses a stamp the schema refuses', () => {
    // Act & Assess
    expect(issuesOf(() => stamped({ version: 0 }))).toEqual([expect.stringMatching(/^version: /)]);
  });
});

describe('Function: countByStatus', () => {
  it('counts every status, naming the ones with none as 0', () => {
    // Act
    const counts = countByStatus([
      { status: 'active' },
      { status: 'active' },
      { status: 'pruned' },
    ]);

    // Assess
    expect(counts).toEqual({ active: 2, provisional: 0, rejected: 0, pruned: 1 });
  });
});

describe('Function: versionMetadata', () => {
  it('describes a version: lineage, counts, checksum and the step that published it', () => {
    // Prepare
    const set = stamped();

    // Act
    const metadata = versionMetadata(set, { runId: 'run-1', iteration: 4 });

    // Assess
    expect(metadata).toEqual({
      version: 3,
      parentVersion: 2,
      createdAt: STAMP.createdAt,
      reason: 'test',
      patternCount: { active: 1, provisional: 1, rejected: 0, pruned: 0 },
      checksum: patternSetChecksum(set),
      createdBy: { runId: 'run-1', iteration: 4 },
    });
  });

  it('records no publisher when none is given', () => {
    // Act & Assess
    expect(versionMetadata(stamped()).createdBy).toEqual({});
  });
});

describe('Function: checkPatternSetBody', () => {
  const set = stamped();
  const metadata = versionMetadata(set);
  const body = JSON.stringify(set);

  it('accepts the body its version item describes', () => {
    // Act
    const check = checkPatternSetBody(body, metadata);

    // Assess
    expect(check).toEqual({ valid: true, set });
  });

  it.each([
    ['a missing body', undefined, /^body is missing$/],
    ['bytes that are not JSON', '{"schemaVersion": ', /^body is not JSON \(/],
    [
      'JSON that does not match the schema, naming the path',
      JSON.stringify({ ...set, patterns: [{ ...set.patterns[0], weight: 3 }] }),
      /^body does not match PatternSetSchema: patterns\[0\]\.weight: /,
    ],
    [
      'another version’s body',
      JSON.stringify({ ...set, version: 2 }),
      /^body is version 2, not 3$/,
    ],
    [
      'a valid body with other content than recorded',
      JSON.stringify({ ...set, patterns: set.patterns.slice(1) }),
      /^body checksum [0-9a-f]{16} is not the recorded [0-9a-f]{16}$/,
    ],
  ])('refuses %s', (_label, text, reason) => {
    // Act
    const check = checkPatternSetBody(text, metadata);

    // Assess
    expect(check.valid).toBe(false);
    expect(check.valid ? '' : check.reason).toMatch(reason);
  });

  it('accepts the same content written with other key order and spacing', () => {
    // Prepare
    const reordered = JSON.stringify(Object.fromEntries(Object.entries(set).reverse()), null, 2);

    // Act & Assess
    expect(checkPatternSetBody(reordered, metadata).valid).toBe(true);
  });
});

describe('Function: fallbackOrder', () => {
  const lineage: VersionLineage[] = [
    { version: 6, parentVersion: 4 },
    { version: 5, parentVersion: 3 },
    { version: 4, parentVersion: 2 },
    { version: 3, parentVersion: 2 },
    { version: 2, parentVersion: 1 },
    { version: 1 },
  ];

  it('tries the ancestors first, then every other earlier version, newest first', () => {
    // Act & Assess
    expect(fallbackOrder(lineage, 6)).toEqual([4, 2, 1, 5, 3]);
  });

  it('never offers the failing version or a later one', () => {
    // Act & Assess
    expect(fallbackOrder(lineage, 4)).toEqual([2, 1, 3]);
    expect(fallbackOrder(lineage, 1)).toEqual([]);
  });

  it('falls back to earlier versions newest first when the failing one has no record', () => {
    // Act & Assess
    expect(fallbackOrder(lineage.slice(1), 6)).toEqual([5, 4, 3, 2, 1]);
  });

  it('stops following a lineage at a missing parent or a parent that is not older', () => {
    // Prepare
    const broken: VersionLineage[] = [
      { version: 4, parentVersion: 3 },
      { version: 3, parentVersion: 9 },
      { version: 2, parentVersion: 2 },
      { version: 1 },
    ];

    // Act & Assess
    expect(fallbackOrder(broken, 4)).toEqual([3, 2, 1]);
    expect(fallbackOrder(broken, 3)).toEqual([2, 1]);
    expect(fallbackOrder([{ version: 2, parentVersion: 2 }, { version: 1 }], 2)).toEqual([1]);
  });
});

describe('Function: chooseFallback', () => {
  const versions: VersionLineage[] = [
    { version: 3, parentVersion: 2 },
    { version: 2, parentVersion: 1 },
    { version: 1 },
  ];
  const valid = (version: number): BodyCheck => ({ valid: true, set: stamped({ version }) });
  const invalid: BodyCheck = { valid: false, reason: 'body is missing' };

  it('returns the first usable version in fallback order, reading no further', async () => {
    // Prepare
    const checked: number[] = [];

    // Act
    const choice = await chooseFallback(versions, 3, (metadata) => {
      checked.push(metadata.version);
      return valid(metadata.version);
    });

    // Assess
    expect(choice.chosen?.metadata.version).toBe(2);
    expect(choice.chosen?.set.version).toBe(2);
    expect(choice.skipped).toEqual([]);
    expect(checked).toEqual([2]);
  });

  it('skips unusable versions and says why', async () => {
    // Act
    const choice = await chooseFallback(versions, 3, async (metadata) =>
      metadata.version === 2 ? invalid : valid(metadata.version),
    );

    // Assess
    expect(choice.chosen?.metadata.version).toBe(1);
    expect(choice.skipped).toEqual([{ version: 2, reason: 'body is missing' }]);
  });

  it('chooses nothing when no earlier version is usable', async () => {
    // Act
    const choice = await chooseFallback(versions, 3, () => invalid);

    // Assess
    expect(choice.chosen).toBeUndefined();
    expect(choice.skipped.map((entry) => entry.version)).toEqual([2, 1]);
  });
});

import { describe, expect, it } from 'vitest';
import { bundleOf, type PatternBundle } from '../../lambdas/core/learning/bundle.js';
import { planImport } from '../../lambdas/core/learning/import-plan.js';
import type { RegistryPattern } from '../../lambdas/core/schemas/learning.js';
import { makeRegistryPattern } from '../support/learning-records.js';

const NOW = '2026-03-02T09:00:00.000Z';
const DIGEST = 'sha256:1111';
const options = { now: NOW, bundleDigest: DIGEST };

const bundle = (patterns: RegistryPattern[]): PatternBundle =>
  bundleOf({ exportedAt: '2026-03-01T12:00:00Z', scopes: ['org'], patterns });

/** Saves a plan the way a registry does: a created pattern is version 1, a saved one +1. */
function applied(existing: RegistryPattern[], plan: ReturnType<typeof planImport>) {
  const byKey = new Map(existing.map((p) => [`${p.scope} ${p.patternId}`, p]));
  for (const pattern of plan.added) byKey.set(`${pattern.scope} ${pattern.patternId}`, pattern);
  for (const { pattern, expectedVersion } of plan.merged)
    byKey.set(`${pattern.scope} ${pattern.patternId}`, {
      ...pattern,
      version: expectedVersion + 1,
    });
  return [...byKey.values()];
}

describe('Function: planImport', () => {
  it('adds every pattern of a bundle to an empty registry, each source stamped with the bundle', () => {
    // Prepare
    const pattern = makeRegistryPattern({ version: 7 });

    // Act
    const plan = planImport([], bundle([pattern]), options);

    // Assess
    expect(plan.merged).toEqual([]);
    expect(plan.skipped).toEqual([]);
    expect(plan.added).toEqual([
      { ...pattern, version: 1, sources: [{ ...pattern.sources[0], bundle: DIGEST }] },
    ]);
  });

  it('round-trips: export, import into an empty registry, export again loses nothing', () => {
    // Prepare: patterns with every optional field, one already imported once before.
    const patterns = [
      makeRegistryPattern({
        type: 'template',
        patternId: 'tmpl-hash-003',
        template: { language: 'ts', code: 'await hash(password)' },
        averageIterations: 2.5,
      }),
      makeRegistryPattern({
        scope: 'project:shop',
        sources: [
          { runId: 'r1', projectId: 'shop', iterations: [1], at: NOW, bundle: 'sha256:0000' },
        ],
      }),
    ];
    const first = bundle(patterns);

    // Act
    const imported = applied([], planImport([], first, options));
    const second = bundleOf({
      ...first,
      exportedAt: first.exportedAt,
      scopes: first.source.scopes,
      patterns: imported,
    });
    const third = bundleOf({
      ...second,
      scopes: second.source.scopes,
      patterns: applied([], planImport([], second, { ...options, bundleDigest: 'sha256:2222' })),
    });

    // Assess: the second export is the first plus where each source came from (the first
    // stamp kept); importing that again changes nothing more.
    const withoutProvenance = (b: PatternBundle) =>
      b.patterns.map((p) => ({
        ...p,
        version: 0,
        sources: p.sources.map(({ bundle: _bundle, ...source }) => source),
      }));
    expect(withoutProvenance(second)).toEqual(withoutProvenance(first));
    expect(second.patterns.map((p) => p.sources.map((s) => s.bundle))).toEqual([
      [DIGEST],
      ['sha256:0000'],
    ]);
    expect(third).toEqual(second);
  });

  it('skips a pattern present identically, or whose news are all counted already', () => {
    // Prepare
    const stored = makeRegistryPattern({ version: 3 });
    const stale = makeRegistryPattern({
      uses: 2,
      successes: 2,
      successRate: 1,
      updatedAt: '2026-01-01T00:00:00Z',
    });

    // Act
    const plan = planImport([stored], bundle([stored]), options);
    const again = planImport([stored], bundle([stale]), options);

    // Assess
    const skipped = [{ scope: 'org', patternId: stored.patternId, reason: 'already present' }];
    expect(plan).toEqual({ added: [], merged: [], skipped });
    expect(again).toEqual({ added: [], merged: [], skipped });
  });

  it('sums uses and successes from runs not counted yet, over the stored version', () => {
    // Prepare
    const stored = makeRegistryPattern({ version: 3, averageIterations: 2 });
    const elsewhere = makeRegistryPattern({
      averageIterations: 5,
      uses: 6,
      successes: 6,
      successRate: 1,
      tags: ['typescript', 'react'],
      sources: [{ runId: 'run-b', projectId: 'web', iterations: [4], at: '2026-02-20T10:00:00Z' }],
      lastUsedAt: '2026-02-20T10:00:00Z',
      updatedAt: '2026-02-20T10:00:00Z',
      body: 'Check for null, or use optional chaining',
    });

    // Act
    const { merged, added, skipped } = planImport([stored], bundle([elsewhere]), options);

    // Assess
    expect(added).toEqual([]);
    expect(skipped).toEqual([]);
    expect(merged).toHaveLength(1);
    const [{ pattern, expectedVersion }] = merged as [(typeof merged)[0]];
    expect(expectedVersion).toBe(3);
    expect(pattern).toMatchObject({
      uses: 10,
      successes: 9,
      successRate: 0.9,
      // Weighted by tasks: two iterations of run-a at 2, one of run-b at 5.
      averageIterations: 3,
      tags: ['typescript', 'null-safety', 'react'],
      body: 'Check for null, or use optional chaining',
      lastUsedAt: '2026-02-20T10:00:00Z',
      createdAt: stored.createdAt,
      updatedAt: NOW,
    });
    expect(pattern.sources).toEqual([
      stored.sources[0],
      { ...elsewhere.sources[0], bundle: DIGEST },
    ]);
    expect(pattern.trend.at(-1)).toEqual({ at: NOW, successRate: 0.9, uses: 10 });
  });

  it('does not count twice the uses of a run both sides know: the side with more uses is kept', () => {
    // Prepare: exported from here (4 uses of run-a), used twice more elsewhere, imported back.
    const stored = makeRegistryPattern({ version: 2 });
    const back = makeRegistryPattern({
      uses: 6,
      successes: 5,
      successRate: 5 / 6,
      sources: [
        ...stored.sources,
        { runId: 'run-c', projectId: 'web', iterations: [1], at: '2026-02-25T10:00:00Z' },
      ],
    });

    // Act
    const { merged } = planImport([stored], bundle([back]), options);

    // Assess
    expect(merged[0]?.pattern).toMatchObject({ uses: 6, successes: 5 });
    expect(merged[0]?.pattern.sources.map((s) => s.runId)).toEqual(['run-a', 'run-c']);
  });

  it('puts every pattern in --scope when given, merging two that meet there', () => {
    // Prepare
    const a = makeRegistryPattern({ scope: 'project:shop' });
    const b = makeRegistryPattern({
      scope: 'project:web',
      sources: [{ runId: 'run-w', projectId: 'web', iterations: [], at: NOW }],
    });

    // Act
    const plan = planImport([], bundle([a, b]), { ...options, scope: 'org' });

    // Assess
    expect(plan.merged).toEqual([]);
    expect(plan.added).toHaveLength(1);
    expect(plan.added[0]).toMatchObject({ scope: 'org', uses: 8, successes: 6, version: 1 });
  });

  it('skips archived patterns and scopes nothing here lists, with the reason', () => {
    // Prepare
    const archived = makeRegistryPattern({ patternId: 'pruned' });
    const foreign = makeRegistryPattern({ scope: 'project:elsewhere' });

    // Act
    const plan = planImport([], bundle([archived, foreign]), {
      ...options,
      knownScopes: ['org', 'project:shop'],
      archived: new Set(['org pruned']),
    });

    // Assess
    expect(plan.added).toEqual([]);
    expect(plan.skipped).toEqual([
      {
        scope: 'org',
        patternId: 'pruned',
        reason: 'archived here (pruned): an import does not bring it back',
      },
      {
        scope: 'project:elsewhere',
        patternId: foreign.patternId,
        reason:
          "scope project:elsewhere is not one of this registry's (org, project:shop): import it with --scope",
      },
    ]);
  });
});

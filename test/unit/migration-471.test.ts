import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { InvalidInputError } from '../../lambdas/core/errors.js';
import { PatternSetSchema } from '../../lambdas/core/schemas/evaluation.js';
import { migratePatternsV1 } from '../../bin/cli/patterns-migration/migrate.js';
import { makePatternsV1, PLANTED, serializePatternsV1 } from '../fixtures/make-patterns-v1.js';

/** The stand-in for the real 471-pattern learned_patterns.json (see make-patterns-v1.ts). */
const FIXTURE_TEXT = readFileSync(
  new URL('../fixtures/patterns-v1-471.json', import.meta.url),
  'utf8',
);
const fixture = () =>
  JSON.parse(FIXTURE_TEXT) as {
    patterns: Record<string, unknown>[];
    service_insights: Record<string, unknown>;
  };
const NOW = '2026-02-01T09:00:00.000Z';

// Migrated once at collection time so the counts can be printed in the test names.
const { set, report } = migratePatternsV1(fixture(), { now: NOW, what: 'patterns-v1-471.json' });
const { totals } = report;
const { patterns: fromPatterns, scopingRules: fromRules } = totals.bySource;

describe('Migration: the 471-pattern v1 file', () => {
  it('is what the generator makes (regenerate with `npx tsx test/fixtures/make-patterns-v1.ts`)', async () => {
    expect(JSON.parse(FIXTURE_TEXT)).toEqual(makePatternsV1());
    expect(await serializePatternsV1(makePatternsV1())).toBe(FIXTURE_TEXT);
  });

  it(`reads ${report.in.patterns} patterns (${report.in.good} good, ${report.in.bad} bad), ${report.in.scopingRules} scoping rules, ${report.in.serviceInsights} service insights`, () => {
    expect(report.in).toEqual({
      patterns: 471,
      good: 259,
      bad: 212,
      scopingRules: 17,
      serviceInsights: 6,
    });
  });

  it(`balances: ${totals.equation}`, () => {
    // Assess: the proof, overall…
    expect(
      report.in.patterns + report.in.scopingRules + report.in.serviceInsights,
      `${report.in.patterns} + ${report.in.scopingRules} + ${report.in.serviceInsights} in vs ${report.out.patterns} + ${report.placed.length} + ${report.skipped.length} + ${report.merged.length} out`,
    ).toBe(
      report.out.patterns + report.placed.length + report.skipped.length + report.merged.length,
    );
    expect(totals).toMatchObject({ in: 494, out: 484, skipped: 4, merged: 6 });
    // …and the numbers themselves, so a change in behaviour shows up here.
    expect(report.out).toEqual({
      patterns: 478,
      good: 263,
      bad: 215,
      techPaths: 8,
      services: 5,
      fromPatterns: 463,
      fromScopingRules: 15,
      placed: 6,
      carried: 6,
    });
    expect(set.patterns).toHaveLength(report.out.patterns);
  });

  it(`balances per source: patterns ${fromPatterns.in} = ${fromPatterns.out} + ${fromPatterns.skipped} + ${fromPatterns.merged}, scoping rules ${fromRules.in} = ${fromRules.out} + ${fromRules.skipped} + ${fromRules.merged}`, () => {
    expect(fromPatterns).toEqual({ in: 471, out: 463, skipped: 3, merged: 5 });
    expect(fromRules).toEqual({ in: 17, out: 15, skipped: 1, merged: 1 });
    expect(totals.bySource.serviceInsights).toEqual({ in: 6, out: 6, skipped: 0, merged: 0 });
  });

  it('carries every service insight verbatim into legacy.service_insights, and nothing else', () => {
    expect(set.legacy).toEqual({ service_insights: fixture().service_insights });
    expect(set.storyHeuristics).toBeUndefined();
  });

  it(`skips the ${report.skipped.length} planted empty and keyword-less entries, each with a reason`, () => {
    expect(report.skipped.map((entry) => [entry.at, entry.reason.split(/[;:]/)[0]])).toEqual([
      [`patterns[${PLANTED.emptyDescription[0]}]`, 'empty description'],
      [`patterns[${PLANTED.emptyDescription[1]}]`, 'empty description'],
      [`patterns[${PLANTED.stopWordsOnly[0]}]`, 'no keywords'],
      ['scoping_rules.do_not_combine[3]', 'empty rule text'],
    ]);
  });

  it(`merges the ${report.merged.length} planted duplicates into the first occurrence, by id`, () => {
    const id = (index: number) => `p_${String(index + 1).padStart(3, '0')}`;
    const expected = [
      ...Object.entries(PLANTED.exactDuplicateOf).map(([at, of]) => [+at, of, 'exact-duplicate']),
      ...Object.entries(PLANTED.rediscoveredDuplicateOf).map(([at, of]) => [
        +at,
        of,
        'exact-duplicate',
      ]),
      ...Object.entries(PLANTED.spacingDuplicateOf).map(([at, of]) => [+at, of, 'duplicate']),
      ...Object.entries(PLANTED.newExampleOf).map(([at, of]) => [+at, of, 'example-added']),
    ] as [number, number, string][];
    expect(report.merged.filter((entry) => entry.source === 'pattern')).toEqual(
      expected
        .sort((a, b) => a[0] - b[0])
        .map(([at, of, kind]) =>
          expect.objectContaining({
            at: `patterns[${at}]`,
            into: id(of),
            kind,
            reason: expect.stringContaining(`patterns[${of}] (${id(of)})`),
          }),
        ),
    );
    expect(report.merged.find((entry) => entry.source === 'scoping_rule')).toMatchObject({
      at: 'scoping_rules.oauth[0]',
      into: 'p_001',
      kind: 'exact-duplicate',
    });
  });

  it('keeps the planted opposite-type pair as two patterns and notes it', () => {
    const [at, of] = Object.entries(PLANTED.oppositeTypeOf)[0]!;
    expect(report.notes).toContain(
      `patterns[${of}] (good) and patterns[${at}] (bad) have the same description but opposite types: both kept`,
    );
  });

  it(`writes a valid v2 set: ${set.patterns.length} patterns with ids in input order, each with keywords`, () => {
    expect(PatternSetSchema.parse(JSON.parse(JSON.stringify(set)))).toEqual(set);
    const numbers = set.patterns.map((pattern) => Number(pattern.id.slice(2)));
    expect(numbers).toEqual([...numbers].sort((a, b) => a - b));
    expect(new Set(numbers).size).toBe(numbers.length);
    expect(set.patterns.filter((pattern) => pattern.keywords.length === 0)).toEqual([]);
    expect(set.patterns.every((pattern) => pattern.keywords.length <= 10)).toBe(true);
  });

  it(`maps ${report.out.techPaths} path prefixes for ${report.out.services} services from service_insights`, () => {
    expect(set.techValidation.validRepoPaths).toEqual({
      tack: ['service/', 'client/'],
      zuck: ['service/'],
      aero: ['apps/', 'packages/', 'infra/'],
      charlotte: ['packages/'],
      ghostwriter: ['stack/'],
    });
    expect(report.notes).toContain(
      'service_insights.billing-legacy mentions no repository path: no techValidation entry for it',
    );
  });

  it('refuses the file with one bad type, naming patterns[12].type', () => {
    // Prepare
    const broken = fixture();
    broken.patterns[12]!.type = 'great_pattern';

    // Act
    const act = () => migratePatternsV1(broken, { now: NOW, what: 'patterns-v1-471.json' });

    // Assess
    expect(act).toThrow(InvalidInputError);
    expect(act).toThrow(
      'patterns-v1-471.json is invalid:\n  patterns[12].type: Invalid option: expected one of "good_pattern"|"bad_pattern"',
    );
  });
});

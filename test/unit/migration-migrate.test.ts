import { describe, expect, it } from 'vitest';
import { InvalidInputError } from '../../lambdas/core/errors.js';
import { PatternSetSchema } from '../../lambdas/core/schemas/evaluation.js';
import { assertBalanced, type MigrationReport } from '../../bin/cli/patterns-migration/report.js';
import { migratePatternsV1 } from '../../bin/cli/patterns-migration/migrate.js';
import { MigrationUnbalancedError } from '../../bin/cli/patterns-migration/errors.js';
import { normaliseTimestamp } from '../../bin/cli/patterns-migration/v1-schema.js';

const NOW = '2026-02-01T09:00:00.000Z';

type V1Pattern = Record<string, unknown>;

function v1Pattern(overrides: V1Pattern = {}): V1Pattern {
  return {
    type: 'good_pattern',
    description: 'Keep OAuth flow for a single platform in one story',
    example: 'This story covers Pinterest OAuth only (tack service)',
    discovered_at: '2026-01-13T21:33:54.436502',
    source: 'scoping_validation',
    ...overrides,
  };
}

function v1File(patterns: V1Pattern[], extra: Record<string, unknown> = {}) {
  return {
    version: '1.0',
    last_updated: '2026-01-14T03:50:41.218897',
    patterns,
    service_insights: { tack: 'Pinterest; see service/oauth/ and client/src/' },
    scoping_rules: {},
    ...extra,
  };
}

function migrate(value: unknown) {
  return migratePatternsV1(value, { now: NOW, what: 'learned_patterns.json' });
}

function invalid(value: unknown): InvalidInputError {
  try {
    migrate(value);
  } catch (error) {
    if (error instanceof InvalidInputError) return error;
    throw error;
  }
  throw new Error('expected the migration to refuse the input');
}

describe('Function: migratePatternsV1', () => {
  describe('mapping', () => {
    it("maps the design document's two examples to v2 patterns", () => {
      // Prepare
      const file = v1File([
        v1Pattern(),
        v1Pattern({
          type: 'bad_pattern',
          description: 'Do not group Pinterest OAuth with Facebook OAuth in same story',
          example: 'They use different services (tack vs zuck)',
          discovered_at: '2026-01-13T21:11:48.132107',
        }),
      ]);

      // Act
      const { set } = migrate(file);

      // Assess
      expect(set).toMatchObject({ schemaVersion: '2.0', version: 1, createdAt: NOW });
      expect(set.patterns).toEqual([
        {
          id: 'p_001',
          type: 'good',
          description:
            'Keep OAuth flow for a single platform in one story\nExample: This story covers Pinterest OAuth only (tack service)',
          appliesTo: ['document:user_story'],
          category: 'scoping',
          keywords: ['tack', 'oauth', 'flow', 'platform'],
          phrases: [],
          regexes: [],
          weight: 1,
          source: 'scoping_validation',
          discoveredAt: '2026-01-13T21:33:54.436502Z',
          learnedIteration: 0,
          status: 'active',
          timesTested: 0,
          timesCorrect: 0,
          timesFired: 0,
        },
        expect.objectContaining({
          id: 'p_002',
          type: 'bad',
          keywords: ['tack', 'pinterest', 'oauth', 'facebook'],
          discoveredAt: '2026-01-13T21:11:48.132107Z',
        }),
      ]);
      expect(PatternSetSchema.parse(set)).toEqual(set);
    });

    it('builds techValidation.validRepoPaths from service_insights', () => {
      const { set, report } = migrate(v1File([v1Pattern()]));
      expect(set.techValidation.validRepoPaths).toEqual({ tack: ['service/', 'client/'] });
      expect(report.out).toMatchObject({ techPaths: 2, services: 1 });
    });

    it('turns scoping rules into patterns after the v1 patterns, dated with last_updated', () => {
      // Prepare
      const file = v1File([v1Pattern()], {
        scoping_rules: {
          do_not_combine: ['Pinterest OAuth with Facebook OAuth'],
          technical_area: {
            rule: 'Name the service',
            reason: 'Routing',
            example: 'tack: service/',
          },
        },
      });

      // Act
      const { set, report } = migrate(file);

      // Assess
      expect(set.patterns.slice(1)).toEqual([
        expect.objectContaining({
          id: 'p_002',
          type: 'bad',
          source: 'scoping_rules.do_not_combine',
          keywords: ['pinterest', 'oauth', 'facebook'],
          discoveredAt: '2026-01-14T03:50:41.218897Z',
        }),
        expect.objectContaining({
          id: 'p_003',
          type: 'good',
          description: 'Name the service\nExample: tack: service/\nWhy: Routing',
          keywords: ['tack', 'name', 'service'],
        }),
      ]);
      expect(report.scopingRules).toEqual([
        {
          at: 'scoping_rules.do_not_combine[0]',
          type: 'bad',
          because: 'listed under "do_not_combine"',
          id: 'p_002',
        },
        expect.objectContaining({ at: 'scoping_rules.technical_area', type: 'good', id: 'p_003' }),
      ]);
    });

    it('dates scoping rules with the migration time when the file has no last_updated', () => {
      const file = v1File([], {
        last_updated: undefined,
        scoping_rules: { a: 'Keep OAuth per platform' },
      });
      expect(migrate(file).set.patterns[0]?.discoveredAt).toBe(NOW);
    });

    it('defaults a missing example and source as the design document does', () => {
      const { set } = migrate(
        v1File([
          {
            type: 'bad_pattern',
            description: 'Vague analytics stories',
            discovered_at: '2026-01-13',
          },
        ]),
      );
      expect(set.patterns[0]).toMatchObject({
        description: 'Vague analytics stories',
        source: 'scoping_validation',
        discoveredAt: '2026-01-13T00:00:00Z',
      });
    });

    it('gives ids by input position, never reusing a skipped one, and widens them past 999', () => {
      // Prepare: 1000 distinct patterns, the second one empty.
      const patterns = Array.from({ length: 1000 }, (_, i) =>
        v1Pattern({ description: i === 1 ? '' : `Pattern number ${i} about webhooks` }),
      );

      // Act
      const { set } = migrate(v1File(patterns));

      // Assess
      expect(set.patterns.slice(0, 2).map((pattern) => pattern.id)).toEqual(['p_0001', 'p_0003']);
      expect(set.patterns.at(-1)?.id).toBe('p_1000');
    });

    it('is deterministic: the same input and time give the same set and report', () => {
      const file = v1File([v1Pattern(), v1Pattern({ description: 'Other thing entirely' })]);
      expect(migrate(file)).toEqual(migrate(structuredClone(file)));
    });
  });

  describe('skips, each with its reason', () => {
    it('skips an empty or blank description, saying what went with it', () => {
      const { report } = migrate(
        v1File([
          v1Pattern(),
          v1Pattern({ description: '' }),
          v1Pattern({ description: '  \n ', example: '' }),
        ]),
      );
      expect(report.skipped).toEqual([
        {
          at: 'patterns[1]',
          source: 'pattern',
          index: 1,
          reason:
            'empty description; its example "This story covers Pinterest OAuth only (tack service)" went with it',
        },
        { at: 'patterns[2]', source: 'pattern', index: 2, reason: 'empty description' },
      ]);
    });

    it('skips a description with no keywords: it could never match a story', () => {
      const { report } = migrate(
        v1File([v1Pattern({ description: 'Do not do this in the same story', example: '' })]),
      );
      expect(report.skipped[0]?.reason).toBe(
        'no keywords: "Do not do this in the same story" has only stop words and short tokens, so it could never match a story',
      );
    });

    it('keeps such a description when its example names a service', () => {
      const { set } = migrate(
        v1File([v1Pattern({ description: 'Do not do this in the same story', example: 'tack' })]),
      );
      expect(set.patterns[0]?.keywords).toEqual(['tack']);
    });

    it('skips an empty scoping rule', () => {
      const { report } = migrate(
        v1File([], { scoping_rules: { do_not_combine: ['A with B things', ' '] } }),
      );
      expect(report.skipped).toEqual([
        {
          at: 'scoping_rules.do_not_combine[1]',
          source: 'scoping_rule',
          index: 1,
          reason: 'empty rule text',
        },
      ]);
    });
  });

  describe('merges, each naming the first id', () => {
    it('merges an exact duplicate into the first occurrence', () => {
      // Prepare
      const file = v1File([
        v1Pattern({ description: 'Something else about webhooks' }),
        v1Pattern(),
        v1Pattern(),
      ]);

      // Act
      const { set, report } = migrate(file);

      // Assess
      expect(set.patterns.map((pattern) => pattern.id)).toEqual(['p_001', 'p_002']);
      expect(report.merged).toEqual([
        {
          at: 'patterns[2]',
          source: 'pattern',
          index: 2,
          into: 'p_002',
          intoAt: 'patterns[1]',
          kind: 'exact-duplicate',
          reason: 'exact duplicate of patterns[1] (p_002)',
        },
      ]);
    });

    it('merges a duplicate that differs only in case and spacing', () => {
      const { report } = migrate(
        v1File([
          v1Pattern(),
          v1Pattern({ description: ' keep  OAuth flow for a single platform in ONE story' }),
        ]),
      );
      expect(report.merged[0]).toMatchObject({
        kind: 'duplicate',
        into: 'p_001',
        reason:
          'duplicate of patterns[0] (p_001): same type and description ignoring case and spacing, nothing new',
      });
    });

    it('merges a repeat with a new example, adding the example to the first', () => {
      // Act
      const { set, report } = migrate(
        v1File([v1Pattern(), v1Pattern({ example: 'Facebook OAuth only (zuck service)' })], {
          service_insights: { tack: 'service/', zuck: 'service/' },
        }),
      );

      // Assess
      expect(report.merged[0]).toMatchObject({
        kind: 'example-added',
        reason: 'same type and description as patterns[0] (p_001); its example was added to p_001',
      });
      expect(set.patterns[0]?.description).toBe(
        'Keep OAuth flow for a single platform in one story\n' +
          'Example: This story covers Pinterest OAuth only (tack service)\n' +
          'Example: Facebook OAuth only (zuck service)',
      );
      expect(set.patterns[0]?.keywords).toEqual(['tack', 'zuck', 'oauth', 'flow', 'platform']);
    });

    it('keeps the earliest discovery date of the merged entries', () => {
      const { set } = migrate(
        v1File([v1Pattern(), v1Pattern({ discovered_at: '2026-01-02T00:00:00+01:00' })]),
      );
      expect(set.patterns[0]?.discoveredAt).toBe('2026-01-02T00:00:00+01:00');
    });

    it('merges a scoping rule that repeats a pattern', () => {
      const { report } = migrate(
        v1File([v1Pattern()], {
          scoping_rules: {
            oauth: [{ rule: 'Keep OAuth flow for a single platform in one story', type: 'good' }],
          },
        }),
      );
      expect(report.merged).toEqual([
        expect.objectContaining({
          at: 'scoping_rules.oauth[0]',
          source: 'scoping_rule',
          into: 'p_001',
        }),
      ]);
    });

    it('keeps the same description with opposite types as two patterns, and says so', () => {
      const { set, report } = migrate(v1File([v1Pattern(), v1Pattern({ type: 'bad_pattern' })]));
      expect(set.patterns.map((pattern) => pattern.type)).toEqual(['good', 'bad']);
      expect(report.merged).toEqual([]);
      expect(report.notes).toContain(
        'patterns[0] (good) and patterns[1] (bad) have the same description but opposite types: both kept',
      );
    });
  });

  describe('notes', () => {
    it('reports fields with no v2 counterpart instead of dropping them silently', () => {
      const { report } = migrate(
        v1File(
          [
            v1Pattern({ confidence: 0.9 }),
            v1Pattern({ description: 'Webhook retries', confidence: 0.5 }),
          ],
          { owner: 'team-a', scoping_rules: { area: { rule: 'Name the service', owner: 'x' } } },
        ),
      );
      expect(report.notes).toEqual(
        expect.arrayContaining([
          'top-level field "owner" has no v2 counterpart: not carried over',
          'field "confidence" (2 entries: patterns[0], patterns[1]) has no v2 counterpart: not carried over',
          'field "owner" (1 entry: scoping_rules.area) has no v2 counterpart: not carried over',
          '3 timestamps had no time zone and were read as UTC', // 2 patterns + last_updated
        ]),
      );
    });

    it('names a service insight that mentions no path', () => {
      const { report } = migrate(
        v1File([v1Pattern()], { service_insights: { legacy: 'Deprecated.' } }),
      );
      expect(report.notes).toContain(
        'service_insights.legacy mentions no repository path: no techValidation entry for it',
      );
    });
  });

  describe('the totals proof', () => {
    const file = v1File(
      [
        v1Pattern(),
        v1Pattern(),
        v1Pattern({ description: '' }),
        v1Pattern({ type: 'bad_pattern', description: 'Avoid kitchen-sink analytics stories' }),
      ],
      { scoping_rules: { keep_together: ['OAuth connect and callback', ''] } },
    );

    it('balances: patterns + scoping rules + service insights in = out + skipped + merged, per source too', () => {
      // Act
      const { report } = migrate(file);

      // Assess
      expect(report.in).toEqual({
        patterns: 4,
        good: 3,
        bad: 1,
        serviceInsights: 1,
        scopingRules: 2,
      });
      expect(report.out).toMatchObject({
        patterns: 3,
        good: 2,
        bad: 1,
        fromPatterns: 2,
        fromScopingRules: 1,
        placed: 1,
        carried: 1,
      });
      expect(report.totals).toMatchObject({
        in: 7,
        out: 4,
        skipped: 2,
        merged: 1,
        equation:
          '4 patterns + 2 scoping rules + 1 service insights in = 4 out + 2 skipped + 1 merged',
        bySource: {
          patterns: { in: 4, out: 2, skipped: 1, merged: 1 },
          scopingRules: { in: 2, out: 1, skipped: 1, merged: 0 },
          serviceInsights: { in: 1, out: 1, skipped: 0, merged: 0 },
        },
      });
      expect(report.in.patterns + report.in.scopingRules + report.in.serviceInsights).toBe(
        report.out.patterns + report.placed.length + report.skipped.length + report.merged.length,
      );
    });

    it('puts the proof in the set’s reason', () => {
      expect(migrate(file).set.reason).toBe(
        'migrated from learned_patterns.json (v1.0, last updated 2026-01-14T03:50:41.218897): 4 patterns + 2 scoping rules + 1 service insights in = 4 out + 2 skipped + 1 merged',
      );
    });

    it('assertBalanced refuses a report that lost an entry', () => {
      // Prepare
      const { set, report } = migrate(file);
      const lost: MigrationReport = { ...report, skipped: report.skipped.slice(1) };

      // Act / Assess
      expect(() => assertBalanced(lost, set)).toThrow(MigrationUnbalancedError);
      expect(() => assertBalanced(lost, set)).toThrow(
        /7 in ≠ 4 out \+ 1 skipped \+ 1 merged|1 of 7 entries/,
      );
    });

    it('assertBalanced refuses an entry counted twice, even when the sums still match', () => {
      // Prepare: the merged entry now claims to be pattern #1 — same count, one entry twice.
      const { set, report } = migrate(file);
      const twice: MigrationReport = {
        ...report,
        merged: report.merged.map((entry) => ({ ...entry, index: 0 })),
      };

      // Act
      const error = (() => {
        try {
          assertBalanced(twice, set);
        } catch (caught) {
          return caught as MigrationUnbalancedError;
        }
        throw new Error('expected assertBalanced to throw');
      })();

      // Assess
      expect(error).toBeInstanceOf(MigrationUnbalancedError);
      expect(error.name).toBe('MigrationUnbalancedError');
      expect(error.code).toBe('MIGRATION_UNBALANCED');
      expect(error.problems).toEqual([
        'entry #1 counted twice: p_001 and merged patterns[1]',
        '1 of 7 entries are not accounted for',
      ]);
    });

    it('assertBalanced refuses a merge into a pattern the set does not have', () => {
      const { set, report } = migrate(file);
      const orphan = { ...set, patterns: set.patterns.slice(1) };
      expect(() => assertBalanced(report, orphan)).toThrow(
        /merged into p_001, which is not in the set/,
      );
    });
  });

  describe('refusals', () => {
    it('names the path of a bad type', () => {
      const error = invalid(v1File([v1Pattern(), v1Pattern({ type: 'meh' })]));
      expect(error.issues).toEqual([
        'patterns[1].type: Invalid option: expected one of "good_pattern"|"bad_pattern"',
      ]);
      expect(error.message).toMatch(
        /^learned_patterns\.json is invalid:\n {2}patterns\[1\]\.type: /,
      );
    });

    it('names every bad path at once', () => {
      const error = invalid(
        v1File([v1Pattern({ description: 3 }), v1Pattern({ discovered_at: 'yesterday' })], {
          scoping_rules: {
            oauth: ['ok', 7, { description: null }],
            max: { rule: 5 },
            typed: { rule: 'Name the service', type: 'great' },
          },
        }),
      );
      expect(error.issues).toEqual([
        'patterns[0].description: expected string, received number',
        'patterns[1].discovered_at: expected an ISO 8601 date-time, like 2026-01-13T21:33:54.436502',
        'scoping_rules.oauth[2].description: expected string, received null',
        'scoping_rules.max.rule: expected string, received number',
        'scoping_rules.typed.type: Invalid option: expected one of "good"|"bad"|"good_pattern"|"bad_pattern"',
      ]);
    });

    it('refuses a migration time without a zone (the caller passes its clock)', () => {
      expect(() => migratePatternsV1(v1File([]), { now: '2026-02-01 09:00' })).toThrow(
        /now: expected an ISO 8601 date-time with a zone/,
      );
    });

    it('refuses another version, and a file that is already v2', () => {
      expect(invalid({ ...v1File([]), version: '2.0' }).issues).toEqual([
        'version: expected "1.0"',
      ]);
      expect(invalid({ schemaVersion: '2.0', patterns: [] }).issues[0]).toMatch(
        /^schemaVersion: this is already a v2 pattern set/,
      );
      expect(invalid([]).issues).toEqual(['(root): expected object, received array']);
    });
  });
});

describe('Function: normaliseTimestamp', () => {
  it.each([
    ['2026-01-13T21:33:54.436502', '2026-01-13T21:33:54.436502Z', true],
    ['2026-01-13 21:33:54', '2026-01-13T21:33:54Z', true],
    ['2026-01-13T21:33', '2026-01-13T21:33:00Z', true],
    ['2026-01-13', '2026-01-13T00:00:00Z', true],
    ['2026-01-13T21:33:54Z', '2026-01-13T21:33:54Z', false],
    ['2026-01-13T21:33:54.1+0100', '2026-01-13T21:33:54.1+01:00', false],
    ['2026-01-13T21:33:54-05', '2026-01-13T21:33:54-05:00', false],
  ])('%s → %s', (text, iso, assumedUtc) => {
    expect(normaliseTimestamp(text)).toEqual({ iso, assumedUtc });
  });

  it.each(['2026-02-30T00:00:00', '2026-13-01', '2026-01-13T24:00:00', 'yesterday', '13/01/2026'])(
    'refuses %s',
    (text) => {
      expect(normaliseTimestamp(text)).toBeUndefined();
    },
  );

  it('produces what the v2 schema accepts', () => {
    const iso = normaliseTimestamp('2026-01-13T21:33:54.436502')?.iso;
    expect(PatternSetSchema.shape.createdAt.safeParse(iso).success).toBe(true);
  });
});

import { describe, expect, it } from 'vitest';
import { compilePatternSet } from '../../lambdas/core/cheap/compile.js';
import { evaluateCheap } from '../../lambdas/core/cheap/evaluate.js';
import { PatternSetSchema } from '../../lambdas/core/schemas/evaluation.js';
import { QusSettingsSchema } from '../../lambdas/core/schemas/qus.js';
import { migratePatternsV1 } from '../../bin/cli/patterns-migration/migrate.js';
import { assertBalanced, type MigrationReport } from '../../bin/cli/patterns-migration/report.js';
import { makeStory, storyArtefact } from '../support/evaluation.js';

const NOW = '2026-02-01T09:00:00.000Z';

function migrate(extra: { scoping_rules?: unknown; service_insights?: unknown }) {
  const file = { version: '1.0', patterns: [], service_insights: {}, scoping_rules: {}, ...extra };
  const result = migratePatternsV1(file, { now: NOW, what: 'learned_patterns.json' });
  // Every migrated set is one the v2 schema reads back unchanged.
  expect(PatternSetSchema.parse(JSON.parse(JSON.stringify(result.set)))).toEqual(result.set);
  return result;
}

/** The accounting, asserted from the report's own lists rather than its totals. */
function expectBalanced(report: MigrationReport) {
  const entries = report.in.patterns + report.in.scopingRules + report.in.serviceInsights;
  const out = report.out.patterns + report.placed.length;
  expect(entries, report.totals.equation).toBe(out + report.skipped.length + report.merged.length);
  for (const source of Object.values(report.totals.bySource))
    expect(source.in).toBe(source.out + source.skipped + source.merged);
}

const placedAt = (report: MigrationReport, at: string) =>
  report.placed.find((entry) => entry.at === at);
const skippedAt = (report: MigrationReport, at: string) =>
  report.skipped.find((entry) => entry.at === at);

describe('Migration: every shape of scoping_rules', () => {
  it.each([
    // [shape, value, entries in, patterns out, placed out, skipped, carried verbatim]
    ['a number', 2, 1, 0, 1, 0, true],
    ['true', true, 1, 0, 1, 0, true],
    ['false', false, 1, 0, 0, 1, false],
    [
      'a list of strings',
      ['Keep OAuth connect and callback', 'Webhook and its retries'],
      2,
      2,
      0,
      0,
      false,
    ],
    ['a list of numbers', [3, 7], 2, 0, 2, 0, true],
    ['a mixed list', ['Keep OAuth connect and callback', 5, true, null, [1], {}], 6, 1, 3, 2, true],
    ['a nested object', { a: { b: 1 }, c: 'text' }, 1, 0, 1, 0, true],
    ['null', null, 1, 0, 0, 1, false],
    ['an empty object', {}, 1, 0, 0, 1, false],
    ['an empty list', [], 1, 0, 0, 1, false],
  ])(
    '%s: in = out + skipped + merged',
    (_shape, value, entries, patterns, placed, skipped, carried) => {
      // Act
      const { set, report } = migrate({ scoping_rules: { some_topic: value } });

      // Assess
      expectBalanced(report);
      expect(report.totals.bySource.scopingRules).toEqual({
        in: entries,
        out: patterns + placed,
        skipped,
        merged: 0,
      });
      expect(set.patterns).toHaveLength(patterns);
      expect(report.placed).toHaveLength(placed);
      expect(set.legacy?.scoping_rules).toEqual(carried ? { some_topic: value } : undefined);
      for (const entry of report.skipped) expect(entry.reason).toMatch(/: holds nothing|is off/);
    },
  );

  it('says what each carried entry is, and why it is carried', () => {
    const { report } = migrate({
      scoping_rules: { max_services: 2, mixed: ['Keep OAuth connect and callback', [3, 'x']] },
    });
    expect(report.placed.map((entry) => [entry.at, entry.to, entry.how])).toEqual([
      [
        'scoping_rules.max_services',
        ['legacy.scoping_rules.max_services'],
        'the number 2 has no v2 setting: carried verbatim',
      ],
      [
        'scoping_rules.mixed[1]',
        ['legacy.scoping_rules.mixed[1]'],
        'a list of 1 number and 1 string has no v2 counterpart: carried verbatim',
      ],
    ]);
  });

  it('assertBalanced refuses a carried entry the set does not hold', () => {
    const { set, report } = migrate({ scoping_rules: { max_services: 2 } });
    expect(() => assertBalanced(report, { ...set, legacy: { scoping_rules: {} } })).toThrow(
      "scoping_rules.max_services is carried verbatim, but the set's legacy does not hold it",
    );
  });

  describe('numeric acceptance-criteria bounds', () => {
    it('become the AC-count heuristic’s bounds: a minimum and a maximum are its ideal range', () => {
      // Act
      const { set, report } = migrate({
        scoping_rules: { min_acceptance_criteria: 3, max_acceptance_criteria: 8 },
      });

      // Assess
      expect(set.storyHeuristics).toEqual({
        acceptanceCriteria: { fewLimit: 2, idealMin: 3, idealMax: 8, manyLimit: 10 },
      });
      expect(placedAt(report, 'scoping_rules.max_acceptance_criteria')).toMatchObject({
        to: ['storyHeuristics.acceptanceCriteria.idealMax'],
        how: 'idealMax 8',
      });
      expect(set.legacy).toBeUndefined();
      expectBalanced(report);
    });

    it('are read inside objects, at any depth, under any spelling of the name', () => {
      const { set, report } = migrate({
        scoping_rules: {
          acceptanceCriteria: { ideal: { min: 4, max: 9 }, too_many: 12, tooFew: 3 },
        },
      });
      expect(set.storyHeuristics?.acceptanceCriteria).toEqual({
        fewLimit: 3,
        idealMin: 4,
        idealMax: 9,
        manyLimit: 12,
      });
      expect(placedAt(report, 'scoping_rules.acceptanceCriteria')?.how).toBe(
        'ideal.min → idealMin 4; ideal.max → idealMax 9; too_many → manyLimit 12; tooFew → fewLimit 3',
      );
      expect(report.totals.bySource.scopingRules).toEqual({ in: 1, out: 1, skipped: 0, merged: 0 });
    });

    it('move a default out of the way, saying so', () => {
      const { set, report } = migrate({ scoping_rules: { ac_max: 12 } });
      expect(set.storyHeuristics?.acceptanceCriteria).toMatchObject({
        idealMax: 12,
        manyLimit: 12,
      });
      expect(placedAt(report, 'scoping_rules.ac_max')?.how).toBe(
        'idealMax 12; manyLimit raised from 10 to 12 to keep fewLimit ≤ idealMin ≤ idealMax ≤ manyLimit',
      );
    });

    it('carry verbatim a bound that conflicts with an earlier one, is crossed by one, or is no whole number', () => {
      // Act
      const { set, report } = migrate({
        scoping_rules: {
          max_acceptance_criteria: 8,
          acceptance_criteria: { max: 6, min: 9, note: 'from the retro' },
          min_ac: 2.5,
        },
      });

      // Assess: only the first bound applies; everything else is in legacy, with its reason.
      expect(set.storyHeuristics?.acceptanceCriteria).toMatchObject({ idealMin: 3, idealMax: 8 });
      expect(set.legacy?.scoping_rules).toEqual({
        acceptance_criteria: { max: 6, min: 9, note: 'from the retro' },
        min_ac: 2.5,
      });
      expect(placedAt(report, 'scoping_rules.acceptance_criteria')?.how).toBe(
        'an object with 3 fields, none of them an acceptance-criteria bound (' +
          'max: idealMax 6 conflicts with scoping_rules.max_acceptance_criteria (idealMax 8), applied first; ' +
          'min: idealMin 9 would cross idealMax 8 from scoping_rules.max_acceptance_criteria (expected fewLimit ≤ idealMin ≤ idealMax ≤ manyLimit); ' +
          'note: a string): carried verbatim',
      );
      expect(placedAt(report, 'scoping_rules.min_ac')?.how).toBe(
        '2.5 is not a whole number ≥ 1, so it cannot be the idealMin bound: carried verbatim',
      );
      expectBalanced(report);
    });

    it('apply the bounds of an object and carry the rest of it verbatim', () => {
      const { set, report } = migrate({
        scoping_rules: { acceptance_criteria: { min: 3, max: 7, owner: 'pm' } },
      });
      expect(set.storyHeuristics?.acceptanceCriteria).toMatchObject({ idealMin: 3, idealMax: 7 });
      expect(set.legacy?.scoping_rules).toEqual({
        acceptance_criteria: { min: 3, max: 7, owner: 'pm' },
      });
      expect(placedAt(report, 'scoping_rules.acceptance_criteria')).toMatchObject({
        to: [
          'storyHeuristics.acceptanceCriteria.idealMin',
          'storyHeuristics.acceptanceCriteria.idealMax',
          'legacy.scoping_rules.acceptance_criteria',
        ],
        how: 'min → idealMin 3; max → idealMax 7; the rest (owner: a string) has no v2 setting: carried verbatim',
      });
    });

    it('score stories with the migrated bounds: 8 criteria are ideal once v1 allowed 8', () => {
      // Prepare
      const story = storyArtefact(
        makeStory({ acceptance_criteria: Array.from({ length: 8 }, (_, i) => `criterion ${i}`) }),
      );
      const { set: plain } = migrate({});
      const { set: migrated } = migrate({ scoping_rules: { max_acceptance_criteria: 8 } });

      // The design's heuristics alone: the QUS detectors would weigh in the fraction too.
      const heuristicsOnly = (set: typeof plain) =>
        compilePatternSet({ ...set, qus: QusSettingsSchema.parse({ detectors: [] }) });

      // Act
      const before = evaluateCheap(story, heuristicsOnly(plain));
      const after = evaluateCheap(story, heuristicsOnly(migrated));

      // Assess: the acCount heuristic goes from 0.6 to 1 of its weight (1 of 5 points).
      expect(after.rawScore - before.rawScore).toBeCloseTo(0.4, 2);
    });
  });

  describe('boolean rules', () => {
    it('true becomes the heuristic that checks it, where one does', () => {
      const { set, report } = migrate({
        scoping_rules: { require_technical_area: true, requireUserValue: true },
      });
      expect(report.placed.map((entry) => [entry.at, entry.to, entry.how])).toEqual([
        [
          'scoping_rules.require_technical_area',
          ['scoringWeights.techSpecificity'],
          'true: the techSpecificity heuristic checks it (weight 1.2)',
        ],
        [
          'scoping_rules.requireUserValue',
          ['scoringWeights.userFocus'],
          'true: the userFocus heuristic checks it (weight 1)',
        ],
      ]);
      expect(set.scoringWeights).toMatchObject({ techSpecificity: 1.2, userFocus: 1 });
      expect(set.legacy).toBeUndefined();
    });

    it('true with no heuristic to check it is carried verbatim', () => {
      const { set, report } = migrate({ scoping_rules: { one_service_per_story: true } });
      expect(placedAt(report, 'scoping_rules.one_service_per_story')?.how).toBe(
        'true: no heuristic checks "one_service_per_story": carried verbatim',
      );
      expect(set.legacy).toEqual({ scoping_rules: { one_service_per_story: true } });
    });

    it('false is a rule switched off: skipped, saying so', () => {
      const { report } = migrate({
        scoping_rules: { require_user_value: false, one_service_per_story: false },
      });
      expect(skippedAt(report, 'scoping_rules.require_user_value')?.reason).toBe(
        'false: the rule is off in v1, so there is nothing to check (the userFocus heuristic keeps its weight 1)',
      );
      expect(skippedAt(report, 'scoping_rules.one_service_per_story')?.reason).toBe(
        'false: the rule is off in v1, so there is nothing to check',
      );
      expectBalanced(report);
    });

    it('a permission or a negation in the name is carried, true or false: false may switch a rule on', () => {
      const { set, report } = migrate({
        scoping_rules: { allow_multiple_services: false, no_technical_area: true },
      });
      expect(report.skipped).toEqual([]);
      expect(set.legacy?.scoping_rules).toEqual({
        allow_multiple_services: false,
        no_technical_area: true,
      });
    });
  });
});

describe('Migration: every shape of service_insights', () => {
  const insights = {
    tack: 'Pinterest; see service/oauth/ and client/src/App.tsx',
    legacy_billing: 'Deprecated.',
    count: 3,
    flag: true,
    off: false,
    strings: ['apps/web/src/pages', 'no path here'],
    numbers: [1, 2],
    mixed: ['infra/', 2, null, { nested: 'packages/ui/' }],
    nested: { description: 'x', paths: { web: 'stack/lambdas/generate.py' } },
    nothing: null,
    empty_object: {},
    empty_list: [],
    blank: '  ',
  };

  it('carries every non-empty insight verbatim, skips the empty ones, and balances', () => {
    // Act
    const { set, report } = migrate({ service_insights: insights });

    // Assess
    expectBalanced(report);
    expect(report.totals.bySource.serviceInsights).toEqual({
      in: 13,
      out: 9,
      skipped: 4,
      merged: 0,
    });
    const empty = new Set(['nothing', 'empty_object', 'empty_list', 'blank']);
    expect(set.legacy).toEqual({
      service_insights: Object.fromEntries(
        Object.entries(insights).filter(([key]) => !empty.has(key)),
      ),
    });
    expect(report.skipped.map((entry) => [entry.at, entry.reason])).toEqual([
      ['service_insights.nothing', 'null: holds nothing to migrate'],
      ['service_insights.empty_object', 'an empty object: holds nothing to migrate'],
      ['service_insights.empty_list', 'an empty list: holds nothing to migrate'],
      ['service_insights.blank', 'an empty string: holds nothing to migrate'],
    ]);
  });

  it('still reads the paths of every shape for techValidation', () => {
    const { set, report } = migrate({ service_insights: insights });
    expect(set.techValidation.validRepoPaths).toEqual({
      tack: ['service/', 'client/'],
      strings: ['apps/'],
      mixed: ['infra/', 'packages/'],
      nested: ['stack/'],
    });
    expect(placedAt(report, 'service_insights.tack')).toMatchObject({
      to: ['legacy.service_insights.tack', 'techValidation.validRepoPaths.tack'],
      how: 'a string, carried verbatim; its paths give service/, client/',
    });
    expect(placedAt(report, 'service_insights.count')?.how).toBe(
      'the number 3, carried verbatim; it mentions no repository path',
    );
  });
});

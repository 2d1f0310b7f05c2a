import { mkdir, readdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { PatternSetSchema } from '../../lambdas/core/schemas/evaluation.js';
import type { MigrationReport } from '../../bin/cli/patterns-migration/report.js';
import { jsonOf, useCliScratch } from '../support/cli.js';

/** A v1 file whose scoping rules and service insights hold every JSON shape. */
const V1 = {
  version: '1.0',
  last_updated: '2026-01-14T03:50:41.218897',
  patterns: [
    {
      type: 'good_pattern',
      description: 'Keep OAuth flow for a single platform in one story',
      example: 'Pinterest OAuth only (tack service)',
      discovered_at: '2026-01-13T21:33:54.436502',
    },
  ],
  scoping_rules: {
    keep_together: ['OAuth connect, callback and token storage'],
    max_acceptance_criteria: 8,
    acceptance_criteria: { min: 4, note: 'agreed at the retro' },
    require_technical_area: true,
    require_user_value: false,
    one_service_per_story: true,
    story_point_scale: [1, 2, 3, 5, 8],
    mixed: ['Never combine prompt changes with model changes', 3, null],
    limits: { services: { max: 2 } },
    deprecated: null,
    nothing: {},
    none: [],
  },
  service_insights: {
    tack: { description: 'Pinterest', key_paths: ['service/oauth/pinterest.ts'] },
    zuck: 'Meta Graph API, see service/graph/',
    weight: 0.5,
    retired: null,
  },
};

describe('CLI: ralph patterns migrate, every shape', () => {
  const scratch = useCliScratch('ralph-patterns-shapes-');

  it('migrates every shape, reports where each entry went, and balances', async () => {
    // Prepare
    const input = join(scratch.dataDir, 'learned_patterns.json');
    await writeFile(input, JSON.stringify(V1));

    // Act
    const result = await scratch.ralph('patterns', 'migrate', input);

    // Assess: the report…
    expect(result.exitCode, result.stderr).toBe(0);
    expect(result.stdout).toContain(
      '✓ 1 patterns + 18 scoping rules + 4 service insights in = 17 out + 6 skipped + 0 merged',
    );
    expect(result.stdout).toMatch(
      /│ scoping rules +│ +18 │ +13 │ +5 │ +0 │\n[\s\S]*│ service insights │ +4 │ +3 │ +1 │ +0 │/,
    );
    expect(result.stdout).toContain(
      '  scoping_rules.max_acceptance_criteria → storyHeuristics.acceptanceCriteria.idealMax: idealMax 8',
    );
    expect(result.stdout).toContain(
      '  scoping_rules.require_technical_area → scoringWeights.techSpecificity: true: the techSpecificity heuristic checks it (weight 1.2)',
    );
    expect(result.stdout).toContain(
      '  scoping_rules.require_user_value: false: the rule is off in v1, so there is nothing to check (the userFocus heuristic keeps its weight 1)',
    );
    expect(result.stdout).toContain(
      '  scoping_rules.story_point_scale[4] → legacy.scoping_rules.story_point_scale[4]: the number 8 has no v2 setting: carried verbatim',
    );
    expect(result.stdout).toContain('  service_insights.retired: null: holds nothing to migrate');
    expect(result.stdout, 'no colour codes when stdout is not a terminal').not.toContain('\u001b[');

    // …and the set: bounds, patterns, and everything else verbatim under legacy.
    const set = PatternSetSchema.parse(JSON.parse(await readFile(`${input}.v2.json`, 'utf8')));
    expect(set.storyHeuristics).toEqual({
      acceptanceCriteria: { fewLimit: 2, idealMin: 4, idealMax: 8, manyLimit: 10 },
    });
    expect(set.patterns.map((pattern) => pattern.source)).toEqual([
      'scoping_validation',
      'scoping_rules.keep_together',
      'scoping_rules.mixed',
    ]);
    expect(set.legacy).toEqual({
      scoping_rules: {
        acceptance_criteria: V1.scoping_rules.acceptance_criteria,
        one_service_per_story: true,
        story_point_scale: V1.scoping_rules.story_point_scale,
        mixed: V1.scoping_rules.mixed,
        limits: V1.scoping_rules.limits,
      },
      service_insights: {
        tack: V1.service_insights.tack,
        zuck: V1.service_insights.zuck,
        weight: 0.5,
      },
    });
  });

  it('gives the same accounting as JSON under --json', async () => {
    // Prepare
    const input = join(scratch.dataDir, 'json-input.json');
    await writeFile(input, JSON.stringify(V1));

    // Act
    const result = await scratch.ralph('patterns', 'migrate', input, '--json');

    // Assess
    expect(result.exitCode, result.stderr).toBe(0);
    const { report } = jsonOf<{ report: MigrationReport }>(result);
    expect(report.totals).toMatchObject({ in: 23, out: 17, skipped: 6, merged: 0 });
    expect(report.totals.bySource).toEqual({
      patterns: { in: 1, out: 1, skipped: 0, merged: 0 },
      scopingRules: { in: 18, out: 13, skipped: 5, merged: 0 },
      serviceInsights: { in: 4, out: 3, skipped: 1, merged: 0 },
    });
    expect(report.out).toMatchObject({ patterns: 3, placed: 14, carried: 12 });
  });

  it('refuses a rule written wrong (exit 2), naming its path, and writes nothing', async () => {
    // Prepare
    const dir = join(scratch.dataDir, 'refused');
    await mkdir(dir);
    const input = join(dir, 'learned_patterns.json');
    await writeFile(
      input,
      JSON.stringify({ ...V1, scoping_rules: { ...V1.scoping_rules, oauth: [{ rule: 5 }] } }),
    );

    // Act
    const result = await scratch.ralph('patterns', 'migrate', input);

    // Assess
    expect(result.exitCode).toBe(2);
    expect(result.stderr).toContain(
      'scoping_rules.oauth[0].rule: expected string, received number',
    );
    expect(await readdir(dir)).toEqual(['learned_patterns.json']);
  });
});

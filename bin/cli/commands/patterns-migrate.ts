import { resolve } from 'node:path';
import Table from 'cli-table3';
import { migratePatternsV1 } from '../patterns-migration/migrate.js';
import { type MigrationReport } from '../patterns-migration/report.js';
import type { PatternSet } from '../../../lambdas/core/schemas/evaluation.js';
import type { Output } from '../output.js';
import { readJson } from '../run-input.js';
import { EXIT } from '../exit-codes.js';
import { CliError } from '../errors.js';
import { exists, writeAtomically } from '../file-writes.js';
import { tableStyle } from '../table-style.js';

export interface PatternsMigrateOptions {
  /** Where to write the v2 pattern set; default `<file>.v2.json`. */
  out?: string;
  /** Overwrite `out` when it exists (refused otherwise). */
  force?: boolean;
  /** Report as JSON; `output` decides, the flag is accepted so options mirror the command line. */
  json?: boolean;
  /** The migration time, the set's `createdAt`; default the wall clock (tests pin it). */
  now?: Date;
}

/**
 * `ralph patterns migrate FILE`: turns a v1 `learned_patterns.json` into a v2 pattern set
 * and reports where every entry went. A malformed file is refused with the path of every
 * problem (exit 2, via `InvalidInputError`); nothing is written unless the migration
 * balances and the target is free (or `--force`).
 *
 * @example
 * await patternsMigrateCommand('learned_patterns.json', { out: 'patterns.v2.json' }, output);
 */
export async function patternsMigrateCommand(
  file: string,
  options: PatternsMigrateOptions,
  output: Output,
): Promise<number> {
  const value = await readJson(file);
  const { set, report } = migratePatternsV1(value, {
    now: (options.now ?? new Date()).toISOString(),
    what: file,
  });

  const out = options.out ?? `${file}.v2.json`;
  if (resolve(out) === resolve(file))
    throw new CliError(`refusing to write the v2 set over its input ${file}`, EXIT.invalidInput);
  if (!options.force && (await exists(out)))
    throw new CliError(`${out} already exists; pass --force to overwrite it`, EXIT.invalidInput);
  await writeAtomically(out, `${JSON.stringify(set, null, 2)}\n`);

  for (const line of renderReport(file, out, set, report)) output.line(line);
  output.data({ file, out, version: set.version, report });
  return EXIT.ok;
}

/**
 * The human report: counts in and out, the proof, paths, and every placed entry, skip,
 * merge and note.
 */
export function renderReport(
  file: string,
  out: string,
  set: PatternSet,
  report: MigrationReport,
): string[] {
  const { totals } = report;
  const table = new Table({
    head: ['v1', 'in', 'out', 'skipped', 'merged'],
    colAligns: ['left', 'right', 'right', 'right', 'right'],
    style: tableStyle(),
  });
  const row = (name: string, t: { in: number; out: number; skipped: number; merged: number }) =>
    table.push([name, t.in, t.out, t.skipped, t.merged].map(String));
  row('patterns', totals.bySource.patterns);
  row('scoping rules', totals.bySource.scopingRules);
  row('service insights', totals.bySource.serviceInsights);
  row('total', totals);

  const lines = [
    `${file} → ${out}: pattern set v${set.version}, ${set.patterns.length} patterns`,
    table.toString(),
    `in:  ${report.in.patterns} patterns (${report.in.good} good, ${report.in.bad} bad), ` +
      `${report.in.scopingRules} scoping rules, ${report.in.serviceInsights} service insights`,
    `out: ${report.out.patterns} patterns (${report.out.good} good, ${report.out.bad} bad), ` +
      `${report.out.techPaths} path prefixes for ${report.out.services} services, ` +
      `${report.out.placed} entries placed elsewhere (${report.out.carried} carried verbatim under legacy)`,
    `✓ ${totals.equation}`,
  ];
  const section = (title: string, items: readonly string[]) => {
    if (items.length > 0) lines.push('', `${title} (${items.length}):`, ...items);
  };
  const width = Math.max(0, ...report.services.map((service) => service.key.length));
  section(
    'Technical paths by service',
    report.services.map(
      (service) =>
        `  ${service.key.padEnd(width)}  ${service.prefixes.length > 0 ? service.prefixes.join(', ') : '(no path mentioned)'}`,
    ),
  );
  section(
    'Placed elsewhere',
    report.placed.map((entry) => `  ${entry.at} → ${entry.to.join(', ')}: ${entry.how}`),
  );
  section(
    'Skipped',
    report.skipped.map((entry) => `  ${entry.at}: ${entry.reason}`),
  );
  section(
    'Merged',
    report.merged.map((entry) => `  ${entry.at} → ${entry.into}: ${entry.reason}`),
  );
  const fate = new Map<string, string>([
    ...report.skipped.map((entry) => [entry.at, 'skipped'] as const),
    ...report.merged.map((entry) => [entry.at, `merged into ${entry.into}`] as const),
  ]);
  section(
    'Scoping rules',
    report.scopingRules.map(
      (rule) => `  ${rule.at} → ${rule.id ?? fate.get(rule.at)} ${rule.type}: ${rule.because}`,
    ),
  );
  section(
    'Notes',
    report.notes.map((note) => `  - ${note}`),
  );
  return lines;
}

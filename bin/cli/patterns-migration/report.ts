/**
 * The migration report, and the proof that it balances: every v1 entry (pattern or scoping
 * rule) is accounted for exactly once, as a v2 pattern, a skip or a merge.
 */
import type { Pattern, PatternSet } from '../../../lambdas/core/schemas/evaluation.js';
import { MigrationUnbalancedError } from './errors.js';
import type { RepoPathRules, ServicePaths } from './tech-paths.js';

/** Which part of the v1 file an entry came from. */
export type EntrySource = 'pattern' | 'scoping_rule';

/** One v1 entry: a pattern or a scoping rule. */
export interface EntryRef {
  /** Where it is in the v1 file: `patterns[12]`, `scoping_rules.keep_together[1]`. */
  readonly at: string;
  readonly source: EntrySource;
  /** Its index in `patterns`, or its position among all scoping rules. */
  readonly index: number;
}

export interface SkippedEntry extends EntryRef {
  readonly reason: string;
}

export interface MergedEntry extends EntryRef {
  /** The v2 pattern it was merged into. */
  readonly into: string;
  /** The v1 entry that pattern came from. */
  readonly intoAt: string;
  /**
   * `exact-duplicate`: identical; `duplicate`: identical ignoring case and spacing, nothing
   * new; `example-added`: same description, and its example joined the pattern's.
   */
  readonly kind: 'exact-duplicate' | 'duplicate' | 'example-added';
  readonly reason: string;
}

/** How a scoping rule was classified, and the pattern it became (when it became one). */
export interface ScopingRuleOutcome {
  readonly at: string;
  readonly type: 'good' | 'bad';
  readonly because: string;
  readonly id?: string;
}

export interface SourceTotals {
  readonly in: number;
  readonly out: number;
  readonly skipped: number;
  readonly merged: number;
}

export interface MigrationReport {
  readonly in: {
    readonly patterns: number;
    readonly good: number;
    readonly bad: number;
    readonly serviceInsights: number;
    readonly scopingRules: number;
  };
  readonly out: {
    readonly patterns: number;
    readonly good: number;
    readonly bad: number;
    /** Path prefixes across all services of `techValidation.validRepoPaths`. */
    readonly techPaths: number;
    /** Services with at least one path prefix. */
    readonly services: number;
    readonly fromPatterns: number;
    readonly fromScopingRules: number;
  };
  readonly skipped: readonly SkippedEntry[];
  readonly merged: readonly MergedEntry[];
  readonly scopingRules: readonly ScopingRuleOutcome[];
  /** One entry per service insight, with the paths it mentions and the prefixes kept. */
  readonly services: readonly ServicePaths[];
  /** Anything else worth knowing: fields not carried over, assumptions made. */
  readonly notes: readonly string[];
  /** The proof: `in = out + skipped + merged`, overall and per source. */
  readonly totals: {
    readonly in: number;
    readonly out: number;
    readonly skipped: number;
    readonly merged: number;
    readonly equation: string;
    readonly bySource: { readonly patterns: SourceTotals; readonly scopingRules: SourceTotals };
  };
}

/**
 * Counts what went in and what came out (`scopingRules` and `notes` are the caller's).
 *
 * @example
 * tallyReport(file.patterns, rules.length, tech, patterns, kept, skipped, merged).totals.equation;
 * // → '4 patterns + 2 scoping rules in = 3 out + 2 skipped + 1 merged'
 */
export function tallyReport(
  v1Patterns: readonly { type: string }[],
  ruleCount: number,
  tech: RepoPathRules,
  patterns: readonly Pattern[],
  kept: readonly EntryRef[],
  skipped: readonly SkippedEntry[],
  merged: readonly MergedEntry[],
): Omit<MigrationReport, 'scopingRules' | 'notes'> {
  const count = <T>(items: readonly T[], test: (item: T) => boolean) => items.filter(test).length;
  const bySource = (source: EntrySource, inCount: number): SourceTotals => ({
    in: inCount,
    out: count(kept, (c) => c.source === source),
    skipped: count(skipped, (s) => s.source === source),
    merged: count(merged, (m) => m.source === source),
  });
  const totals = {
    in: v1Patterns.length + ruleCount,
    out: patterns.length,
    skipped: skipped.length,
    merged: merged.length,
    equation:
      `${v1Patterns.length} patterns + ${ruleCount} scoping rules in = ` +
      `${patterns.length} out + ${skipped.length} skipped + ${merged.length} merged`,
    bySource: {
      patterns: bySource('pattern', v1Patterns.length),
      scopingRules: bySource('scoping_rule', ruleCount),
    },
  };
  return {
    in: {
      patterns: v1Patterns.length,
      good: count(v1Patterns, (p) => p.type === 'good_pattern'),
      bad: count(v1Patterns, (p) => p.type === 'bad_pattern'),
      serviceInsights: tech.services.length,
      scopingRules: ruleCount,
    },
    out: {
      patterns: patterns.length,
      good: count(patterns, (p) => p.type === 'good'),
      bad: count(patterns, (p) => p.type === 'bad'),
      techPaths: Object.values(tech.validRepoPaths).reduce((sum, paths) => sum + paths.length, 0),
      services: Object.keys(tech.validRepoPaths).length,
      fromPatterns: totals.bySource.patterns.out,
      fromScopingRules: totals.bySource.scopingRules.out,
    },
    skipped,
    merged,
    services: tech.services,
    totals,
  };
}

/**
 * Proves a migration lost nothing and counted nothing twice, throwing
 * {@link MigrationUnbalancedError} with every discrepancy otherwise:
 * - `in.patterns + in.scopingRules = out.patterns + skipped + merged`, overall and per source;
 * - good + bad add up, in and out, and the counts match the set;
 * - every v1 entry (by its position, which the `p_NNN` id encodes) is accounted for exactly
 *   once: as a pattern of the set, a skip or a merge, and every merge names a pattern that
 *   exists.
 *
 * @example
 * assertBalanced(report, set); // throws if anything was lost or double-counted
 */
export function assertBalanced(report: MigrationReport, set: PatternSet): void {
  const problems: string[] = [];
  const expect = (ok: boolean, problem: string) => {
    if (!ok) problems.push(problem);
  };
  const { totals } = report;
  const entries = report.in.patterns + report.in.scopingRules;
  const accounted = report.out.patterns + report.skipped.length + report.merged.length;
  expect(
    entries === accounted,
    `${report.in.patterns} patterns + ${report.in.scopingRules} scoping rules in ≠ ${report.out.patterns} out + ${report.skipped.length} skipped + ${report.merged.length} merged`,
  );
  for (const [name, source] of Object.entries(totals.bySource))
    expect(
      source.in === source.out + source.skipped + source.merged,
      `${name}: ${source.in} in ≠ ${source.out} out + ${source.skipped} skipped + ${source.merged} merged`,
    );
  expect(
    report.in.good + report.in.bad === report.in.patterns,
    `in: ${report.in.good} good + ${report.in.bad} bad ≠ ${report.in.patterns} patterns`,
  );
  expect(
    report.out.good + report.out.bad === report.out.patterns,
    `out: ${report.out.good} good + ${report.out.bad} bad ≠ ${report.out.patterns} patterns`,
  );
  expect(
    report.out.fromPatterns + report.out.fromScopingRules === report.out.patterns,
    `out: ${report.out.fromPatterns} from patterns + ${report.out.fromScopingRules} from scoping rules ≠ ${report.out.patterns}`,
  );
  expect(
    set.patterns.length === report.out.patterns,
    `the set has ${set.patterns.length} patterns, the report says ${report.out.patterns}`,
  );
  expect(
    totals.in === entries && totals.out === report.out.patterns,
    `totals (${totals.in} in, ${totals.out} out) disagree with the counts`,
  );

  // Every entry exactly once.
  const seen = new Map<number, string>();
  const account = (ordinal: number, as: string) => {
    if (!Number.isInteger(ordinal) || ordinal < 0 || ordinal >= entries)
      problems.push(`${as} is not an input entry`);
    else if (seen.has(ordinal))
      problems.push(`entry #${ordinal + 1} counted twice: ${seen.get(ordinal)} and ${as}`);
    else seen.set(ordinal, as);
  };
  const ordinalOf = (entry: EntryRef) =>
    entry.source === 'pattern' ? entry.index : report.in.patterns + entry.index;
  const ids = new Set(set.patterns.map((pattern) => pattern.id));
  for (const pattern of set.patterns) account(Number(pattern.id.slice(2)) - 1, pattern.id);
  for (const entry of report.skipped) account(ordinalOf(entry), `skipped ${entry.at}`);
  for (const entry of report.merged) {
    account(ordinalOf(entry), `merged ${entry.at}`);
    expect(
      ids.has(entry.into),
      `${entry.at} was merged into ${entry.into}, which is not in the set`,
    );
  }
  expect(
    seen.size === entries,
    `${entries - seen.size} of ${entries} entries are not accounted for`,
  );
  if (problems.length > 0) throw new MigrationUnbalancedError(problems);
}

/**
 * The migration report, and the proof that it balances: every v1 entry (pattern, scoping
 * rule or service insight) is accounted for exactly once: out (as a v2 pattern, or placed
 * elsewhere in the set), skipped or merged.
 */
import type { Pattern, PatternSet } from '../../../lambdas/core/schemas/evaluation.js';
import { MigrationUnbalancedError } from './errors.js';
import type { RepoPathRules, ServicePaths } from './tech-paths.js';

/** Which part of the v1 file an entry came from. */
export type EntrySource = 'pattern' | 'scoping_rule' | 'service_insight';

/**
 * One v1 entry: a pattern, a `scoping_rules` entry (a rule, or any other value: one per
 * element of a list, else one per topic) or a `service_insights` entry (one per service).
 */
export interface EntryRef {
  /** Where it is in the v1 file: `patterns[12]`, `scoping_rules.keep_together[1]`. */
  readonly at: string;
  readonly source: EntrySource;
  /** Its index in `patterns`, or its position among the entries of its source. */
  readonly index: number;
}

/**
 * An entry that went out as something other than a pattern: a heuristic setting, a
 * technical path, or a value carried verbatim under the set's `legacy`.
 */
export interface PlacedEntry extends EntryRef {
  /** Where it is in the v2 set: `storyHeuristics.acceptanceCriteria.idealMax`, `legacy.…`. */
  readonly to: readonly string[];
  /** How, in words: `idealMax 8`, `the number 2 has no v2 setting: carried verbatim`. */
  readonly how: string;
  /** Set when the entry is carried verbatim: the `legacy` field and key that hold it. */
  readonly carried?: { readonly from: 'scoping_rules' | 'service_insights'; readonly key: string };
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
    /** Entries of `scoping_rules`: rules and other values alike. */
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
    /** Entries that went out as something other than a pattern (see `placed`). */
    readonly placed: number;
    /** Of those, the ones carried verbatim under the set's `legacy`. */
    readonly carried: number;
  };
  readonly placed: readonly PlacedEntry[];
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
    /** Patterns and placed entries. */
    readonly out: number;
    readonly skipped: number;
    readonly merged: number;
    readonly equation: string;
    readonly bySource: {
      readonly patterns: SourceTotals;
      readonly scopingRules: SourceTotals;
      readonly serviceInsights: SourceTotals;
    };
  };
}

/** What {@link tallyReport} counts. */
export interface TallyInput {
  readonly v1Patterns: readonly { type: string }[];
  /** Entries of `scoping_rules`. */
  readonly scopingCount: number;
  readonly tech: RepoPathRules;
  readonly patterns: readonly Pattern[];
  /** The entries that became `patterns`. */
  readonly kept: readonly EntryRef[];
  readonly placed: readonly PlacedEntry[];
  readonly skipped: readonly SkippedEntry[];
  readonly merged: readonly MergedEntry[];
}

/**
 * Counts what went in and what came out (`scopingRules` and `notes` are the caller's).
 *
 * @example
 * tallyReport({ v1Patterns, scopingCount, tech, patterns, kept, placed, skipped, merged }).totals.equation;
 * // → '4 patterns + 2 scoping rules + 1 service insights in = 4 out + 2 skipped + 1 merged'
 */
export function tallyReport(input: TallyInput): Omit<MigrationReport, 'scopingRules' | 'notes'> {
  const { v1Patterns, scopingCount, tech, patterns, kept, placed, skipped, merged } = input;
  const count = <T>(items: readonly T[], test: (item: T) => boolean) => items.filter(test).length;
  const bySource = (source: EntrySource, inCount: number): SourceTotals => ({
    in: inCount,
    out: count(kept, (c) => c.source === source) + count(placed, (p) => p.source === source),
    skipped: count(skipped, (s) => s.source === source),
    merged: count(merged, (m) => m.source === source),
  });
  const insightCount = tech.services.length;
  const out = patterns.length + placed.length;
  const totals = {
    in: v1Patterns.length + scopingCount + insightCount,
    out,
    skipped: skipped.length,
    merged: merged.length,
    equation:
      `${v1Patterns.length} patterns + ${scopingCount} scoping rules + ${insightCount} service insights in = ` +
      `${out} out + ${skipped.length} skipped + ${merged.length} merged`,
    bySource: {
      patterns: bySource('pattern', v1Patterns.length),
      scopingRules: bySource('scoping_rule', scopingCount),
      serviceInsights: bySource('service_insight', insightCount),
    },
  };
  return {
    in: {
      patterns: v1Patterns.length,
      good: count(v1Patterns, (p) => p.type === 'good_pattern'),
      bad: count(v1Patterns, (p) => p.type === 'bad_pattern'),
      serviceInsights: insightCount,
      scopingRules: scopingCount,
    },
    out: {
      patterns: patterns.length,
      good: count(patterns, (p) => p.type === 'good'),
      bad: count(patterns, (p) => p.type === 'bad'),
      techPaths: Object.values(tech.validRepoPaths).reduce((sum, paths) => sum + paths.length, 0),
      services: Object.keys(tech.validRepoPaths).length,
      fromPatterns: count(kept, (c) => c.source === 'pattern'),
      fromScopingRules: count(kept, (c) => c.source === 'scoping_rule'),
      placed: placed.length,
      carried: count(placed, (p) => p.carried !== undefined),
    },
    placed,
    skipped,
    merged,
    services: tech.services,
    totals,
  };
}

/**
 * Proves a migration lost nothing and counted nothing twice, throwing
 * {@link MigrationUnbalancedError} with every discrepancy otherwise:
 * - `in = out + skipped + merged`, overall and per source, where out is the patterns and the
 *   entries placed elsewhere;
 * - good + bad add up, in and out, and the counts match the set;
 * - every v1 entry (by its position, which the `p_NNN` id encodes) is accounted for exactly
 *   once: as a pattern of the set, a placed entry, a skip or a merge; every merge names a
 *   pattern that exists, and every entry carried verbatim is in the set's `legacy`.
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
  const entries = report.in.patterns + report.in.scopingRules + report.in.serviceInsights;
  const out = report.out.patterns + report.placed.length;
  expect(
    entries === out + report.skipped.length + report.merged.length,
    `${entries} in ≠ ${out} out + ${report.skipped.length} skipped + ${report.merged.length} merged`,
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
    totals.in === entries && totals.out === out,
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
  const firstOf: Record<EntrySource, number> = {
    pattern: 0,
    scoping_rule: report.in.patterns,
    service_insight: report.in.patterns + report.in.scopingRules,
  };
  const ordinalOf = (entry: EntryRef) => firstOf[entry.source] + entry.index;
  const ids = new Set(set.patterns.map((pattern) => pattern.id));
  for (const pattern of set.patterns) account(Number(pattern.id.slice(2)) - 1, pattern.id);
  for (const entry of report.placed) {
    account(ordinalOf(entry), `placed ${entry.at}`);
    expect(entry.source !== 'pattern', `${entry.at} is a pattern, yet placed outside the patterns`);
    const legacy = entry.carried && set.legacy?.[entry.carried.from];
    expect(
      !entry.carried ||
        (typeof legacy === 'object' && legacy !== null && Object.hasOwn(legacy, entry.carried.key)),
      `${entry.at} is carried verbatim, but the set's legacy does not hold it`,
    );
  }
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

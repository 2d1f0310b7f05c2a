/**
 * v1 → v2 pattern migration (shared/design/dual-mode-evaluation.md, "Pattern Migration
 * Strategy"). Pure: the caller reads the file, passes the parsed JSON and the time, and
 * writes the result.
 *
 * What becomes what:
 * - each v1 pattern → one v2 pattern: `good_pattern` → `good`, `bad_pattern` → `bad`, the
 *   description as written, its `example` kept as an `Example:` line of the description,
 *   keywords extracted from the description (plus service names named in the example);
 * - each scoping rule → one v2 pattern, classified good or bad (see `scoping-rules.ts`),
 *   `source: "scoping_rules.<topic>"`, dated with the file's `last_updated`;
 * - every other `scoping_rules` value (numbers, booleans, lists, objects, null) → an
 *   acceptance-criteria bound, a heuristic check, a skip saying why, or carried verbatim
 *   under the set's `legacy.scoping_rules` (see `scoping-values.ts`);
 * - `service_insights` → `techValidation.validRepoPaths` (see `tech-paths.ts`), and each
 *   insight carried verbatim under `legacy.service_insights` (see `service-insights.ts`).
 *
 * Nothing is lost: every entry (pattern, scoping rule or value, service insight) goes out
 * (as a pattern, or placed elsewhere in the set), or is skipped (empty, no keywords, a rule
 * switched off) or merged into an earlier one (same type and description), each with a
 * reason. Ids are `p_NNN` where NNN is the entry's 1-based position in the input (patterns
 * first, then scoping rules), so `patterns[12]` is always `p_013`; ids of skipped, merged or
 * placed entries are never reused. {@link assertBalanced} proves the accounting before a
 * set is returned.
 */
import { z } from 'zod';
import { InvalidInputError, RalphError } from '../../../lambdas/core/errors.js';
import { formatZodIssues, parseOrThrow } from '../../../lambdas/core/shared/validation.js';
import {
  PatternSetSchema,
  type Pattern,
  type PatternSet,
} from '../../../lambdas/core/schemas/evaluation.js';
import { patternCandidates, ruleCandidates, sortCandidates, type Candidate } from './candidates.js';
import { extractKeywords, namesIn } from './keywords.js';
import { migrationNotes } from './notes.js';
import {
  assertBalanced,
  tallyReport,
  type EntryRef,
  type EntrySource,
  type MigrationReport,
  type ScopingRuleOutcome,
} from './report.js';
import { classifyScopingRule, splitScopingRules } from './scoping-rules.js';
import { placeScopingValues } from './scoping-values.js';
import { placeServiceInsights } from './service-insights.js';
import { repoPathsFromServiceInsights } from './tech-paths.js';
import { normaliseTimestamp, PatternFileV1Schema, type PatternFileV1 } from './v1-schema.js';

export interface MigrationResult {
  readonly set: PatternSet;
  readonly report: MigrationReport;
}

export interface MigrateOptions {
  /** The migration time (ISO 8601 with zone), from the caller's clock: the set's `createdAt`. */
  readonly now: string;
  /** What the input is called in errors and in the set's `reason`; default `patterns file`. */
  readonly what?: string;
}

/**
 * Migrates a parsed v1 pattern file to a v2 {@link PatternSet} (version 1) and a report
 * that accounts for every entry. Throws {@link InvalidInputError} naming every bad path
 * (`patterns[12].type: ...`) when the input is not a v1 file, and
 * `MigrationUnbalancedError` if the accounting does not balance.
 *
 * @example
 * const { set, report } = migratePatternsV1(JSON.parse(text), {
 *   now: clock.now().toISOString(),
 *   what: 'learned_patterns.json',
 * });
 * report.totals.equation; // '471 patterns + 17 scoping rules in = 478 out + 4 skipped + 6 merged'
 */
export function migratePatternsV1(value: unknown, options: MigrateOptions): MigrationResult {
  const what = options.what ?? 'patterns file';
  const file = parseV1File(value, options.now, what);
  const tech = repoPathsFromServiceInsights(file.service_insights);
  const scoping = splitScopingRules(file.scoping_rules);
  const { rules } = scoping;
  const values = placeScopingValues(scoping.values, file.scoping_rules);
  const insights = placeServiceInsights(file.service_insights, tech.services);
  const width = Math.max(3, String(file.patterns.length + scoping.count).length);
  const idOf = (ordinal: number) => `p_${String(ordinal + 1).padStart(width, '0')}`;

  const dates = timestampReader();
  const rulesDated = file.last_updated ? dates.read(file.last_updated) : options.now;
  const classified = rules.map((rule) => ({
    rule,
    verdict: classifyScopingRule(rule.topic, rule.text, rule.explicitType),
  }));
  const candidates: Candidate[] = [
    ...patternCandidates(file.patterns, dates.read),
    ...ruleCandidates(classified, file.patterns.length, rulesDated),
  ];
  const names = [...new Set(tech.services.map((service) => service.service))];
  const keywordsOf = (candidate: Candidate) =>
    extractKeywords([candidate.text, ...namesIn(candidate.examples.join(' '), names)].join(' '), {
      names,
    });
  const { kept, skipped, merged } = sortCandidates(candidates, idOf, keywordsOf);

  const patterns = kept.map((candidate) =>
    toPattern(candidate, idOf(candidate.ordinal), keywordsOf(candidate)),
  );
  const keptAt = new Set(kept.map((candidate) => candidate.at));
  const scopingRules: ScopingRuleOutcome[] = classified.map(({ rule, verdict }) => ({
    at: rule.at,
    ...verdict,
    ...(keptAt.has(rule.at) ? { id: idOf(file.patterns.length + rule.index) } : {}),
  }));
  const notes = migrationNotes(file, rules, kept, tech.services, {
    assumedUtc: dates.assumedUtc(),
    rulesDated,
  });

  const tally = tallyReport({
    v1Patterns: file.patterns,
    scopingCount: scoping.count,
    tech,
    patterns,
    kept,
    placed: [...values.placed, ...insights.placed],
    skipped: inInputOrder([...skipped, ...values.skipped, ...insights.skipped]),
    merged,
  });
  const legacy = Object.fromEntries(
    Object.entries({ scoping_rules: values.carried, service_insights: insights.carried }).filter(
      ([, carried]) => Object.keys(carried).length > 0,
    ),
  );
  const set = validSet({
    schemaVersion: '2.0',
    version: 1,
    createdAt: options.now,
    reason: `migrated from ${what} (v1.0${file.last_updated ? `, last updated ${file.last_updated}` : ''}): ${tally.totals.equation}`,
    patterns,
    techValidation: { validRepoPaths: tech.validRepoPaths },
    ...(values.storyHeuristics ? { storyHeuristics: values.storyHeuristics } : {}),
    ...(Object.keys(legacy).length > 0 ? { legacy } : {}),
  });
  const report: MigrationReport = { ...tally, scopingRules, notes };
  assertBalanced(report, set);
  return { set, report };
}

/**
 * The v1 file, once the migration time is known good and the input is neither a v2 set
 * nor anything else than a v1 file (each refused with an {@link InvalidInputError}).
 */
function parseV1File(value: unknown, now: string, what: string): PatternFileV1 {
  if (!Now.safeParse(now).success)
    throw new InvalidInputError('migration time', [
      `now: expected an ISO 8601 date-time with a zone, got ${JSON.stringify(now)}`,
    ]);
  refuseV2(value, what);
  return parseOrThrow(PatternFileV1Schema, value, what);
}

/** Reads v1 timestamps as ISO 8601, counting those read as UTC for want of a zone. */
function timestampReader(): { read: (text: string) => string; assumedUtc: () => number } {
  let assumedUtc = 0;
  return {
    read: (text) => {
      // The schema has already refused anything normaliseTimestamp cannot read.
      const normalised = normaliseTimestamp(text) ?? { iso: text, assumedUtc: false };
      if (normalised.assumedUtc) assumedUtc += 1;
      return normalised.iso;
    },
    assumedUtc: () => assumedUtc,
  };
}

/** The migrated set, checked against the v2 schema: a failure is a bug of the migration. */
function validSet(input: unknown): PatternSet {
  const built = PatternSetSchema.safeParse(input);
  if (!built.success)
    throw new RalphError(
      `the migrated pattern set is not a valid v2 set:\n  ${formatZodIssues(built.error).join('\n  ')}`,
      { code: 'MIGRATION_OUTPUT_INVALID' },
    );
  return built.data;
}

const Now = z.iso.datetime({ offset: true });

const SOURCE_ORDER: readonly EntrySource[] = ['pattern', 'scoping_rule', 'service_insight'];

/** Entries as the v1 file lists them: by source, then position. */
function inInputOrder<T extends EntryRef>(entries: T[]): T[] {
  const rank = (entry: EntryRef) => SOURCE_ORDER.indexOf(entry.source);
  return entries.sort((a, b) => rank(a) - rank(b) || a.index - b.index);
}

function toPattern(candidate: Candidate, id: string, keywords: string[]): Pattern {
  return {
    id,
    type: candidate.type,
    description: [
      candidate.text.trim(),
      ...candidate.examples.map((example) => `Example: ${example}`),
      ...candidate.reasons.map((reason) => `Why: ${reason}`),
    ].join('\n'),
    appliesTo: ['document:user_story'],
    category: 'scoping',
    keywords,
    phrases: [],
    regexes: [],
    weight: 1,
    source: candidate.origin,
    discoveredAt: candidate.discoveredAt,
    learnedIteration: 0,
    status: 'active',
    timesTested: 0,
    timesCorrect: 0,
    timesFired: 0,
  };
}

function refuseV2(value: unknown, what: string): void {
  if (typeof value === 'object' && value !== null && 'schemaVersion' in value)
    throw new InvalidInputError(what, [
      `schemaVersion: this is already a v2 pattern set (schemaVersion ${JSON.stringify(value.schemaVersion)}); there is nothing to migrate`,
    ]);
}

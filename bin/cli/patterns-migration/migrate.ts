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
 * - `service_insights` → `techValidation.validRepoPaths` (see `tech-paths.ts`).
 *
 * Nothing is lost: every entry (pattern or scoping rule) becomes a pattern, or is skipped
 * (empty text, no keywords) or merged into an earlier one (same type and description), each
 * with a reason. Ids are `p_NNN` where NNN is the entry's 1-based position in the input
 * (patterns first, then scoping rules), so `patterns[12]` is always `p_013`; ids of skipped
 * or merged entries are never reused. {@link assertBalanced} proves the accounting before a
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
import {
  assertBalanced,
  tallyReport,
  type EntryRef,
  type MergedEntry,
  type MigrationReport,
  type ScopingRuleOutcome,
  type SkippedEntry,
} from './report.js';
import { extractKeywords, namesIn } from './keywords.js';
import { classifyScopingRule, flattenScopingRules } from './scoping-rules.js';
import { repoPathsFromServiceInsights, type ServicePaths } from './tech-paths.js';
import {
  normaliseTimestamp,
  PatternFileV1Schema,
  V1_PATTERN_FIELDS,
  V1_TOP_LEVEL_FIELDS,
} from './v1-schema.js';

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

/** An entry on its way to becoming a pattern. */
interface Candidate extends EntryRef {
  readonly ordinal: number;
  readonly type: 'good' | 'bad';
  readonly text: string;
  readonly examples: string[];
  readonly reasons: readonly string[];
  discoveredAt: string;
  readonly origin: string;
}

const normaliseText = (text: string) => text.trim().replace(/\s+/g, ' ').toLowerCase();

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
  if (!Now.safeParse(options.now).success)
    throw new InvalidInputError('migration time', [
      `now: expected an ISO 8601 date-time with a zone, got ${JSON.stringify(options.now)}`,
    ]);
  refuseV2(value, what);
  const file = parseOrThrow(PatternFileV1Schema, value, what);

  const tech = repoPathsFromServiceInsights(file.service_insights);
  const names = [...new Set(tech.services.map((service) => service.service))];
  const rules = flattenScopingRules(file.scoping_rules);
  const width = Math.max(3, String(file.patterns.length + rules.length).length);
  const idOf = (ordinal: number) => `p_${String(ordinal + 1).padStart(width, '0')}`;

  let assumedUtc = 0;
  const timestamp = (text: string): string => {
    // The schema has already refused anything normaliseTimestamp cannot read.
    const normalised = normaliseTimestamp(text) ?? { iso: text, assumedUtc: false };
    if (normalised.assumedUtc) assumedUtc += 1;
    return normalised.iso;
  };
  const rulesDated = file.last_updated ? timestamp(file.last_updated) : options.now;
  const classified = rules.map((rule) => ({
    rule,
    verdict: classifyScopingRule(rule.topic, rule.text, rule.explicitType),
  }));
  const candidates: Candidate[] = [
    ...file.patterns.map((pattern, index) => ({
      at: `patterns[${index}]`,
      source: 'pattern' as const,
      index,
      ordinal: index,
      type: pattern.type === 'good_pattern' ? ('good' as const) : ('bad' as const),
      text: pattern.description,
      examples: nonEmpty([pattern.example]),
      reasons: [],
      discoveredAt: timestamp(pattern.discovered_at),
      origin: pattern.source,
    })),
    ...classified.map(({ rule, verdict }) => ({
      at: rule.at,
      source: 'scoping_rule' as const,
      index: rule.index,
      ordinal: file.patterns.length + rule.index,
      type: verdict.type,
      text: rule.text,
      examples: nonEmpty(rule.examples),
      reasons: nonEmpty(rule.reasons),
      discoveredAt: rulesDated,
      origin: `scoping_rules.${rule.topic}`,
    })),
  ];

  // Each entry, in input order: skipped, merged into an earlier one, or kept.
  const kept: Candidate[] = [];
  const skipped: SkippedEntry[] = [];
  const merged: MergedEntry[] = [];
  const byKey = new Map<string, Candidate>();
  const keywordsOf = (candidate: Candidate) =>
    extractKeywords([candidate.text, ...namesIn(candidate.examples.join(' '), names)].join(' '), {
      names,
    });
  for (const candidate of candidates) {
    const ref: EntryRef = { at: candidate.at, source: candidate.source, index: candidate.index };
    if (candidate.text.trim() === '') {
      const field = candidate.source === 'pattern' ? 'description' : 'rule text';
      const lost = candidate.examples[0]
        ? `; its example "${candidate.examples[0]}" went with it`
        : '';
      skipped.push({ ...ref, reason: `empty ${field}${lost}` });
      continue;
    }
    const key = `${candidate.type}:${normaliseText(candidate.text)}`;
    const first = byKey.get(key);
    if (first) {
      merged.push({ ...ref, ...mergeInto(first, candidate, idOf(first.ordinal)) });
      continue;
    }
    if (keywordsOf(candidate).length === 0) {
      skipped.push({
        ...ref,
        reason: `no keywords: "${candidate.text.trim()}" has only stop words and short tokens, so it could never match a story`,
      });
      continue;
    }
    byKey.set(key, candidate);
    kept.push(candidate);
  }

  const patterns = kept.map((candidate) =>
    toPattern(candidate, idOf(candidate.ordinal), keywordsOf(candidate)),
  );
  const keptAt = new Set(kept.map((candidate) => candidate.at));
  const scopingRules: ScopingRuleOutcome[] = classified.map(({ rule, verdict }) => ({
    at: rule.at,
    ...verdict,
    ...(keptAt.has(rule.at) ? { id: idOf(file.patterns.length + rule.index) } : {}),
  }));
  const notes = [
    ...noteUnknownFields(file, rules),
    ...noteOppositeTypes(kept),
    ...(assumedUtc > 0 ? [`${assumedUtc} timestamps had no time zone and were read as UTC`] : []),
    ...(rules.length > 0
      ? [
          `scoping rules carry no date: their patterns are dated ${rulesDated} (${file.last_updated ? 'the last_updated of the file' : 'the migration time'})`,
        ]
      : []),
    ...noteServices(tech.services),
  ];

  const tally = tallyReport(file.patterns, rules.length, tech, patterns, kept, skipped, merged);
  const built = PatternSetSchema.safeParse({
    schemaVersion: '2.0',
    version: 1,
    createdAt: options.now,
    reason: `migrated from ${what} (v1.0${file.last_updated ? `, last updated ${file.last_updated}` : ''}): ${tally.totals.equation}`,
    patterns,
    techValidation: { validRepoPaths: tech.validRepoPaths },
  });
  if (!built.success)
    throw new RalphError(
      `the migrated pattern set is not a valid v2 set:\n  ${formatZodIssues(built.error).join('\n  ')}`,
      { code: 'MIGRATION_OUTPUT_INVALID' },
    );
  const report: MigrationReport = { ...tally, scopingRules, notes };
  assertBalanced(report, built.data);
  return { set: built.data, report };
}

const Now = z.iso.datetime({ offset: true });

const nonEmpty = (texts: readonly string[]) =>
  texts.map((text) => text.trim()).filter((text) => text !== '');

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

function noteServices(services: readonly ServicePaths[]): string[] {
  const notes = services
    .filter((service) => service.prefixes.length === 0)
    .map((service) => `${service.at} mentions no repository path: no techValidation entry for it`);
  const keysByName = new Map<string, string[]>();
  for (const service of services)
    keysByName.set(service.service, [...(keysByName.get(service.service) ?? []), service.key]);
  for (const [name, keys] of keysByName)
    if (keys.length > 1)
      notes.push(
        `service_insights keys ${keys.join(', ')} all map to "${name}": their paths were combined`,
      );
  return notes;
}

function refuseV2(value: unknown, what: string): void {
  if (typeof value === 'object' && value !== null && 'schemaVersion' in value)
    throw new InvalidInputError(what, [
      `schemaVersion: this is already a v2 pattern set (schemaVersion ${JSON.stringify(value.schemaVersion)}); there is nothing to migrate`,
    ]);
}

/**
 * Merges a repeated entry into the first with the same type and description (compared
 * ignoring case and spacing): its example joins the first's when it is new, and the pattern
 * keeps the earlier discovery date.
 */
function mergeInto(
  first: Candidate,
  repeat: Candidate,
  id: string,
): Omit<MergedEntry, keyof EntryRef> {
  const known = new Set(first.examples.map(normaliseText));
  const added = repeat.examples.filter((example) => !known.has(normaliseText(example)));
  const exact =
    added.length === 0 &&
    repeat.text.trim() === first.text.trim() &&
    repeat.examples.every((example) => first.examples.includes(example));
  first.examples.push(...added);
  if (Date.parse(repeat.discoveredAt) < Date.parse(first.discoveredAt))
    first.discoveredAt = repeat.discoveredAt;
  const into = { into: id, intoAt: first.at };
  if (exact)
    return { ...into, kind: 'exact-duplicate', reason: `exact duplicate of ${first.at} (${id})` };
  if (added.length === 0)
    return {
      ...into,
      kind: 'duplicate',
      reason: `duplicate of ${first.at} (${id}): same type and description ignoring case and spacing, nothing new`,
    };
  return {
    ...into,
    kind: 'example-added',
    reason: `same type and description as ${first.at} (${id}); its example was added to ${id}`,
  };
}

function noteUnknownFields(
  file: { patterns: readonly Record<string, unknown>[] } & Record<string, unknown>,
  rules: readonly { at: string; extraFields: readonly string[] }[],
): string[] {
  const notes: string[] = [];
  for (const field of Object.keys(file))
    if (!V1_TOP_LEVEL_FIELDS.includes(field))
      notes.push(`top-level field "${field}" has no v2 counterpart: not carried over`);
  const where = new Map<string, string[]>();
  file.patterns.forEach((pattern, index) => {
    for (const field of Object.keys(pattern))
      if (!V1_PATTERN_FIELDS.includes(field))
        where.set(field, [...(where.get(field) ?? []), `patterns[${index}]`]);
  });
  for (const rule of rules)
    for (const field of rule.extraFields) where.set(field, [...(where.get(field) ?? []), rule.at]);
  for (const [field, ats] of where) {
    const shown = ats.length > 3 ? `${ats.slice(0, 3).join(', ')}, …` : ats.join(', ');
    notes.push(
      `field "${field}" (${ats.length} ${ats.length === 1 ? 'entry' : 'entries'}: ${shown}) has no v2 counterpart: not carried over`,
    );
  }
  return notes;
}

function noteOppositeTypes(kept: readonly Candidate[]): string[] {
  const byText = new Map<string, Candidate>();
  const notes: string[] = [];
  for (const candidate of kept) {
    const text = normaliseText(candidate.text);
    const other = byText.get(text);
    if (other && other.type !== candidate.type)
      notes.push(
        `${other.at} (${other.type}) and ${candidate.at} (${candidate.type}) have the same description but opposite types: both kept`,
      );
    else if (!other) byText.set(text, candidate);
  }
  return notes;
}

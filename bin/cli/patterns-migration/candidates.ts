/**
 * The entries of a v1 file (its patterns, then its scoping rules) as candidates for v2
 * patterns, each then skipped, merged into an earlier one, or kept.
 */
import type { FlatScopingRule, ScopingRuleVerdict } from './scoping-rules.js';
import type { EntryRef, MergedEntry, SkippedEntry } from './report.js';
import type { PatternFileV1 } from './v1-schema.js';

/** An entry on its way to becoming a pattern. */
export interface Candidate extends EntryRef {
  readonly ordinal: number;
  readonly type: 'good' | 'bad';
  readonly text: string;
  readonly examples: string[];
  readonly reasons: readonly string[];
  discoveredAt: string;
  readonly origin: string;
}

/** Text as compared for duplicates: trimmed, spacing collapsed, lower case. */
export const normaliseText = (text: string) => text.trim().replace(/\s+/g, ' ').toLowerCase();

const nonEmpty = (texts: readonly string[]) =>
  texts.map((text) => text.trim()).filter((text) => text !== '');

/**
 * Each v1 pattern: `good_pattern` → `good`, `bad_pattern` → `bad`; its `example` kept, its
 * date read by `timestamp`.
 */
export function patternCandidates(
  patterns: PatternFileV1['patterns'],
  timestamp: (text: string) => string,
): Candidate[] {
  return patterns.map((pattern, index) => ({
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
  }));
}

/** Scoping rules follow the patterns: their ordinals start at `patternCount`. */
export function ruleCandidates(
  classified: readonly { rule: FlatScopingRule; verdict: ScopingRuleVerdict }[],
  patternCount: number,
  dated: string,
): Candidate[] {
  return classified.map(({ rule, verdict }) => ({
    at: rule.at,
    source: 'scoping_rule' as const,
    index: rule.index,
    ordinal: patternCount + rule.index,
    type: verdict.type,
    text: rule.text,
    examples: nonEmpty(rule.examples),
    reasons: nonEmpty(rule.reasons),
    discoveredAt: dated,
    origin: `scoping_rules.${rule.topic}`,
  }));
}

/** Each entry, in input order: skipped, merged into an earlier one, or kept. */
export function sortCandidates(
  candidates: readonly Candidate[],
  idOf: (ordinal: number) => string,
  keywordsOf: (candidate: Candidate) => string[],
): { kept: Candidate[]; skipped: SkippedEntry[]; merged: MergedEntry[] } {
  const kept: Candidate[] = [];
  const skipped: SkippedEntry[] = [];
  const merged: MergedEntry[] = [];
  const byKey = new Map<string, Candidate>();
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
  return { kept, skipped, merged };
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

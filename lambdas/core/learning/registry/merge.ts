/**
 * A run's candidates into a registry scope (cross-loop-learning.md, "Check for duplicates -
 * Merge similar patterns"): a candidate that duplicates a stored pattern updates it, any
 * other is created. Pure: the run-end step lists the scope, calls this, and saves each
 * change with its expected version (a lost race is retried from a fresh list).
 */
import { z } from 'zod';
import { DEFAULT_LEARNING_CONFIG } from '../../schemas/learning-config.js';
import {
  RegistryPatternSchema,
  type RegistryPattern,
  type RegistryScope,
} from '../../schemas/learning.js';
import { parseOrThrow } from '../../shared/validation.js';
import { issueKeyText } from '../issue-key.js';
import type { PatternCandidate } from './candidate.js';
import { weightedAverage } from './combine.js';
import { tagSet } from './history-facts.js';

export const MergeOptionsSchema = z.strictObject({
  /**
   * A used pattern at or above this success rate keeps its body (the injection threshold:
   * a body good enough to inject is good enough to keep).
   */
  keepBodyAt: z.number().min(0).max(1).default(DEFAULT_LEARNING_CONFIG.minSuccessRate),
});
export type MergeOptionsInput = z.input<typeof MergeOptionsSchema>;

export interface RegistryChanges {
  /** New patterns: save each with no expected version. */
  create: RegistryPattern[];
  /** Stored patterns with a run's sources added: save each over `expectedVersion`. */
  update: { pattern: RegistryPattern; expectedVersion: number }[];
}

interface Entry {
  pattern: RegistryPattern;
  /** Undefined: created by this merge. */
  expectedVersion?: number;
  changed: boolean;
}

/**
 * Duplicates are the same id, or the same type and issue key, or (success) the same
 * category. A merge appends the candidate's sources (a run already among them is skipped
 * whole, so extracting a run twice changes nothing), unions tags, re-averages
 * averageIterations weighted by the tasks each side counted, and keeps one body:
 * - the stored one when it has been used and held up (uses > 0, successRate ≥ keepBodyAt):
 *   its success rate measures those words, so new words would inherit a record not theirs;
 * - else the most recent run's (the candidate's unless the pattern has a later source): an
 *   unproven or failing body has no claim, and the newest fix matches the code as it is.
 * New patterns start unused: uses 0, successes 0, successRate 1 (it worked once), trend [].
 * Patterns of other scopes in `existing` are ignored.
 *
 * @example
 * const { create, update } = mergeCandidates(await registry.listPatterns(scope), candidates,
 *   scope, clock.now().toISOString());
 * for (const pattern of create) await registry.savePattern(pattern, undefined);
 * for (const { pattern, expectedVersion } of update) await registry.savePattern(pattern, expectedVersion);
 */
export function mergeCandidates(
  existing: readonly RegistryPattern[],
  candidates: readonly PatternCandidate[],
  scope: RegistryScope,
  now: string,
  options: MergeOptionsInput = {},
): RegistryChanges {
  const { keepBodyAt } = parseOrThrow(MergeOptionsSchema, options, 'registry merge options');
  const entries: Entry[] = existing
    .filter((pattern) => pattern.scope === scope)
    .map((pattern) => ({ pattern, expectedVersion: pattern.version, changed: false }));
  for (const candidate of candidates) {
    const entry = entries.find((each) => duplicates(each.pattern, candidate));
    if (!entry) {
      entries.push({ pattern: created(candidate, scope, now), changed: true });
      continue;
    }
    const merged = merge(entry.pattern, candidate, now, keepBodyAt);
    if (merged) Object.assign(entry, { pattern: merged, changed: true });
  }
  const changes: RegistryChanges = { create: [], update: [] };
  for (const { pattern, expectedVersion, changed } of entries) {
    if (!changed) continue;
    const valid = parseOrThrow(
      RegistryPatternSchema,
      pattern,
      `registry pattern ${pattern.patternId}`,
    );
    if (expectedVersion === undefined) changes.create.push(valid);
    else changes.update.push({ pattern: valid, expectedVersion });
  }
  return changes;
}

function duplicates(pattern: RegistryPattern, candidate: PatternCandidate): boolean {
  if (pattern.patternId === candidate.patternId) return true;
  if (pattern.type !== candidate.type) return false;
  if (pattern.issue && candidate.issue)
    return issueKeyText(pattern.issue) === issueKeyText(candidate.issue);
  return pattern.type === 'success' && pattern.category === candidate.category;
}

function created(candidate: PatternCandidate, scope: RegistryScope, now: string): RegistryPattern {
  return {
    ...candidate,
    scope,
    version: 1,
    uses: 0,
    successes: 0,
    successRate: 1,
    trend: [],
    createdAt: now,
    updatedAt: now,
  };
}

/** The pattern with the candidate's new runs folded in; undefined when it has none. */
function merge(
  pattern: RegistryPattern,
  candidate: PatternCandidate,
  now: string,
  keepBodyAt: number,
): RegistryPattern | undefined {
  const known = new Set(pattern.sources.map((source) => source.runId));
  const added = candidate.sources.filter((source) => !known.has(source.runId));
  if (added.length === 0) return undefined;
  const provenBody = pattern.uses > 0 && pattern.successRate >= keepBodyAt;
  const takeBody = !provenBody && latest(added) >= latest(pattern.sources);
  const category = pattern.category ?? candidate.category;
  const averageIterations = weightedAverage(
    { average: pattern.averageIterations, sources: pattern.sources },
    { average: candidate.averageIterations, sources: added },
  );
  const template = takeBody ? (candidate.template ?? pattern.template) : pattern.template;
  return {
    ...pattern,
    ...(takeBody ? { title: candidate.title, body: candidate.body } : {}),
    ...(category ? { category } : {}),
    ...(template ? { template } : {}),
    ...(averageIterations === undefined ? {} : { averageIterations }),
    tags: tagSet(pattern.tags, candidate.tags),
    sources: [...pattern.sources, ...added],
    updatedAt: now,
  };
}

/** The latest `at` of some sources, in milliseconds (times may carry different offsets). */
function latest(sources: readonly { at: string }[]): number {
  return Math.max(...sources.map((source) => Date.parse(source.at)));
}

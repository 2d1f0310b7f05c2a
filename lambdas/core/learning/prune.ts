/**
 * Which registry patterns pruning moves to the archive (cross-loop-learning.md "Pattern
 * Pruning"): those that fail too often once they have been used enough to tell, and those
 * nobody has used for a long time. "Superseded by a better pattern" is not judged here: it
 * needs a person (or `ralph patterns show`) to say which is better.
 */
import type { LearningConfig } from '../schemas/learning-config.js';
import type { RegistryPattern } from '../schemas/learning.js';
import { fallsBelow } from '../shared/compare.js';

export interface PruneCandidate {
  pattern: RegistryPattern;
  /** Why, in words with the figures: what a dry run prints and the archive keeps. */
  reason: string;
}

const DAY_MS = 24 * 60 * 60 * 1000;
const percent = (share: number) => `${Math.round(share * 100)}%`;

/**
 * @example
 * pruneCandidates(patterns, DEFAULT_LEARNING_CONFIG.prune, '2026-06-01T00:00:00Z');
 * // [{ pattern, reason: 'success rate 33% (1 of 3 uses) is below 50% after at least 3 uses' }]
 */
export function pruneCandidates(
  patterns: readonly RegistryPattern[],
  prune: LearningConfig['prune'],
  now: string,
): PruneCandidate[] {
  return patterns.flatMap((pattern) => {
    const reasons = [failingReason(pattern, prune), idleReason(pattern, prune, now)].filter(
      (reason): reason is string => reason !== undefined,
    );
    return reasons.length === 0 ? [] : [{ pattern, reason: reasons.join('; ') }];
  });
}

function failingReason(
  pattern: RegistryPattern,
  prune: LearningConfig['prune'],
): string | undefined {
  if (pattern.uses < prune.minUses || !fallsBelow(pattern.successRate, prune.minSuccessRate))
    return undefined;
  return `success rate ${percent(pattern.successRate)} (${pattern.successes} of ${pattern.uses} uses) is below ${percent(prune.minSuccessRate)} after at least ${prune.minUses} uses`;
}

function idleReason(
  pattern: RegistryPattern,
  prune: LearningConfig['prune'],
  now: string,
): string | undefined {
  const since = pattern.lastUsedAt ?? pattern.createdAt;
  const idleDays = Math.floor((Date.parse(now) - Date.parse(since)) / DAY_MS);
  if (idleDays <= prune.maxIdleDays) return undefined;
  const what = pattern.lastUsedAt ? `last used ${since}` : `never used, created ${since}`;
  return `idle for ${idleDays} days (${what}), more than ${prune.maxIdleDays}`;
}

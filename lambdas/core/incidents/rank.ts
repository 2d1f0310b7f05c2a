/**
 * Which error groups of a batch come first: frequency, severity, recency and users affected
 * (the four), each on a scale of its own so that none drowns the others.
 */
import type { ErrorLevel } from '../schemas/error-event.js';
import type { ErrorGroup } from '../schemas/error-group.js';

/** Severity as a score: a fatal error outranks anything but a far more frequent error. */
const SEVERITY: Readonly<Record<ErrorLevel, number>> = {
  fatal: 3,
  error: 2,
  warning: 1,
  info: 0,
};

/** Hours after which recency has halved its weight. */
const RECENCY_HALF_LIFE_HOURS = 6;

/**
 * A group's score: log2 of its occurrences (the sender's count, or the deliveries when the
 * sender counts nothing) + severity + a recency term in [0, 2] + log2 of users affected.
 * Logarithms, because 10,000 occurrences are not 100 times as urgent as 100.
 */
export function groupScore(group: ErrorGroup, now: Date): number {
  const occurrences = Math.max(group.seen, group.deliveries);
  const lastSeen = Date.parse(group.latest.lastSeen ?? group.lastReceivedAt);
  const hoursAgo = Math.max(0, (now.getTime() - lastSeen) / 3_600_000);
  const recency = 2 * 0.5 ** (hoursAgo / RECENCY_HALF_LIFE_HOURS);
  return (
    Math.log2(1 + occurrences) +
    SEVERITY[group.latest.level] +
    recency +
    Math.log2(1 + group.usersAffected)
  );
}

export interface RankedGroup {
  readonly group: ErrorGroup;
  readonly score: number;
}

/** The groups, highest score first; ties go to the group received first (stable). */
export function rankGroups(groups: readonly ErrorGroup[], now: Date): RankedGroup[] {
  return groups
    .map((group) => ({ group, score: groupScore(group, now) }))
    .sort(
      (a, b) => b.score - a.score || a.group.firstReceivedAt.localeCompare(b.group.firstReceivedAt),
    );
}

/**
 * The store of a project's pattern-set versions (shared/design/dual-mode-evaluation.md:
 * "Pattern File Corruption", "Automatic Rollback"). The design's file-with-backup becomes
 * immutable versions plus a pointer:
 * - every change is a new version, written once and never changed;
 * - a pointer names the current version and moves only by a conditional write on the
 *   version the caller read (optimistic locking, as RunStore's records);
 * - nothing invalid is ever pointed at: a version is validated before it is written
 *   (publish) or before the pointer returns to it (rollback);
 * - a current version found corrupt later is replaced, for the reader, by the nearest
 *   usable earlier version, and the reader is told.
 */
import type { PatternSet } from '../schemas/evaluation.js';
import type {
  PatternSetDraft,
  PatternSetPointer,
  PatternSetVersion,
  PublishOptions,
  RollbackOptions,
} from '../schemas/pattern-sets.js';

/** The pattern set a project's evaluations use now. */
export interface CurrentPatternSet {
  /** The version served: the pointer's, or the fallback's when that one is unusable. */
  readonly version: number;
  readonly set: PatternSet;
  /** The pointer as stored: pass `pointer.version` as `expectedCurrent` to change it. */
  readonly pointer: PatternSetPointer;
  /** Set when the pointer's version was unusable: that version. */
  readonly fallbackFrom?: number;
  /** Why the pointer's version was unusable (`body is missing`, the zod paths, ...). */
  readonly fallbackReason?: string;
  /** Every version refused before `version` was found, the pointer's first. */
  readonly skipped?: readonly { readonly version: number; readonly reason: string }[];
}

/**
 * Versioned pattern sets per project. Conflicts are `VersionConflictError`, a malformed
 * set or option `InvalidInputError` (zod paths), a version asked for that does not exist
 * `NotFoundError`, an unusable stored version `PatternSetCorruptError`, a storage failure
 * worth retrying `TransientError`. A write the SDK retried after a lost reply is
 * recognised as this call's own and succeeds; the same call made twice is two calls, and
 * the second conflicts.
 */
export interface PatternSetStore {
  /**
   * The current set, validated; `undefined` when the project has none. When the pointer's
   * version is unusable, the nearest usable ancestor (then any earlier version, newest
   * first) is returned with `fallbackFrom` and `fallbackReason`; the pointer is not moved
   * (a read never writes: `rollback` does that). Throws PatternSetCorruptError when no
   * earlier version is usable either.
   */
  current(projectId: string): Promise<CurrentPatternSet | undefined>;

  /** One version, validated; `undefined` when it was never published. */
  get(projectId: string, version: number): Promise<PatternSet | undefined>;

  /**
   * Every published version's record, newest first, orphans included; with `newerThan`,
   * only those numbered above it (one bounded read, however long the project's history).
   */
  listVersions(projectId: string, options?: { newerThan?: number }): Promise<PatternSetVersion[]>;

  /**
   * Publishes `set` as a new version and makes it current; returns its number (one more
   * than the newest version, so a number is never reused, even after a rollback). Nothing
   * is written when the set or the options are invalid, or when the pointer no longer
   * names `expectedCurrent`. If another publish or rollback moves the pointer between
   * this call's check and its own move, the new version stays stored but not current (an
   * orphan: listed, never served, never a fallback before the current's ancestors) and
   * the call throws VersionConflictError.
   */
  publish(projectId: string, set: PatternSetDraft, options: PublishOptions): Promise<number>;

  /**
   * Points the project back at `toVersion` (any other stored version) after checking its
   * body again; versions are kept. Returns the moved pointer.
   */
  rollback(
    projectId: string,
    toVersion: number,
    options: RollbackOptions,
  ): Promise<PatternSetPointer>;
}

/**
 * Versioned pattern sets (shared/design/dual-mode-evaluation.md, "Pattern File Corruption"
 * and "Automatic Rollback"): what a caller hands to `publish`, what the store records about
 * each version, and the pointer that names a project's current version.
 */
import { z } from 'zod';
import { PATTERN_STATUSES, PatternSetSchema } from './evaluation.js';

const IsoDate = z.iso.datetime({ offset: true });
const Version = z.number().int().positive();

/**
 * What a caller publishes: a pattern set without the fields the store stamps (`version`,
 * `parentVersion`, `createdAt`, `reason`). A whole {@link PatternSet} is accepted too (the
 * stamped fields are dropped), so a caller may edit the current set and publish it.
 */
export const PatternSetDraftSchema = PatternSetSchema.omit({
  version: true,
  parentVersion: true,
  createdAt: true,
  reason: true,
});
export type PatternSetDraft = z.input<typeof PatternSetDraftSchema>;
/** A validated draft: defaults applied, ready to be stamped with a version. */
export type PatternSetContent = z.output<typeof PatternSetDraftSchema>;

/** How many patterns of a version are in each status (every status present, 0 included). */
export const PatternCountsSchema = z.record(
  z.enum(PATTERN_STATUSES),
  z.number().int().nonnegative(),
);
export type PatternCounts = z.infer<typeof PatternCountsSchema>;

/** 16 lower-case hex digits: FNV-1a 64 of the canonical JSON of a version's content. */
export const ChecksumSchema = z.string().regex(/^[0-9a-f]{16}$/, 'like 0123456789abcdef');

/** The run step that published a version, when one did (a migration or a person did not). */
export const PublishedBySchema = z.object({
  runId: z.string().min(1).optional(),
  iteration: z.number().int().nonnegative().optional(),
});
export type PublishedBy = z.infer<typeof PublishedBySchema>;

/**
 * What the store records about one published version. `checksum` covers the content only
 * (not `version`, `parentVersion`, `createdAt`, `reason`), so two versions with the same
 * patterns, tech rules and weights have the same checksum.
 */
export const PatternSetVersionSchema = z.object({
  version: Version,
  createdAt: IsoDate,
  /** The version that was current when this one was published (absent for the first). */
  parentVersion: Version.optional(),
  reason: z.string(),
  patternCount: PatternCountsSchema,
  checksum: ChecksumSchema,
  createdBy: PublishedBySchema.prefault({}),
});
export type PatternSetVersion = z.infer<typeof PatternSetVersionSchema>;

/** Which version a project's evaluations use, and the last move that put it there. */
export const PatternSetPointerSchema = z.object({
  version: Version,
  /** 1 for the first publish, +1 for every move (publish or rollback). */
  pointerVersion: Version,
  updatedAt: IsoDate,
  change: z.enum(['publish', 'rollback']),
  reason: z.string(),
});
export type PatternSetPointer = z.infer<typeof PatternSetPointerSchema>;

export const PublishOptionsSchema = z.object({
  /**
   * The version the pointer names as the caller read it (`pointer.version` of `current`,
   * which is `fallbackFrom` when `current` fell back); `null` when the project has no
   * pattern set yet. The new version's `parentVersion`.
   */
  expectedCurrent: Version.nullable(),
  reason: z.string().min(1),
  runId: z.string().min(1).optional(),
  iteration: z.number().int().nonnegative().optional(),
});
export type PublishOptions = z.input<typeof PublishOptionsSchema>;

export const RollbackOptionsSchema = z.object({
  /** The version the pointer names as the caller read it. */
  expectedCurrent: Version,
  reason: z.string().min(1),
});
export type RollbackOptions = z.input<typeof RollbackOptionsSchema>;

/**
 * The pure half of versioned pattern sets: stamping a draft into a version, the checksum
 * and metadata recorded for it, telling a usable stored body from a corrupt one, and which
 * earlier version stands in when the current one is corrupt.
 */
import { formatZodIssues, parseOrThrow } from '../shared/validation.js';
import {
  PATTERN_STATUSES,
  PatternSetSchema,
  type Pattern,
  type PatternSet,
} from '../schemas/evaluation.js';
import {
  PatternSetDraftSchema,
  PatternSetVersionSchema,
  type PatternCounts,
  type PatternSetContent,
  type PatternSetVersion,
  type PublishedBy,
} from '../schemas/pattern-sets.js';

/** What the store stamps on a draft to make it a version. */
export interface VersionStamp {
  readonly version: number;
  readonly parentVersion?: number | undefined;
  /** ISO 8601 with zone, from the caller's clock. */
  readonly createdAt: string;
  readonly reason: string;
}

/**
 * Validates a draft: the content of a pattern set, defaults applied. Throws
 * InvalidInputError naming every bad path (`patterns[0].weight: Too big: ...`).
 *
 * @example
 * const content = parsePatternSetDraft(proposal); // before anything is read or written
 */
export function parsePatternSetDraft(draft: unknown): PatternSetContent {
  return parseOrThrow(PatternSetDraftSchema, draft, 'pattern set');
}

/**
 * The version body: the content with the stamp, validated with `PatternSetSchema` so that
 * what is written is exactly what a reader accepts.
 *
 * @example
 * const set = stampPatternSet(content, { version: 4, parentVersion: 3, createdAt, reason });
 */
export function stampPatternSet(content: PatternSetContent, stamp: VersionStamp): PatternSet {
  return parseOrThrow(PatternSetSchema, { ...content, ...stamp }, 'pattern set');
}

const CONTENT_KEYS = Object.keys(PatternSetDraftSchema.shape) as (keyof PatternSetContent)[];

/**
 * FNV-1a 64 (hex) of the canonical JSON of the content: the set without its stamp, so the
 * same patterns, tech rules and weights give the same checksum in every version.
 *
 * @example
 * patternSetChecksum(set); // '9c1f0d2a7b3e4f50'
 */
export function patternSetChecksum(set: PatternSetContent): string {
  const content = Object.fromEntries(CONTENT_KEYS.map((key) => [key, set[key]]));
  return fnv1a64Hex(canonicalJson(content));
}

/**
 * JSON with object keys sorted and `undefined` members left out, so equal data always has
 * equal text (key order and optional fields left undefined do not count). Array holes and
 * `undefined` entries become `null`, as in JSON.
 *
 * @example
 * canonicalJson({ b: 1, a: [true, undefined] }); // '{"a":[true,null],"b":1}'
 */
export function canonicalJson(value: unknown): string {
  if (value === null || value === undefined) return 'null';
  if (Array.isArray(value))
    return `[${Array.from(value, (entry: unknown) => canonicalJson(entry)).join(',')}]`;
  if (typeof value === 'object') {
    const members = Object.entries(value)
      .filter(([, entry]) => entry !== undefined)
      .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
      .map(([key, entry]) => `${JSON.stringify(key)}:${canonicalJson(entry)}`);
    return `{${members.join(',')}}`;
  }
  // Strings, finite numbers and booleans as JSON writes them; NaN and Infinity become null.
  return JSON.stringify(value) ?? 'null';
}

const TWO_32 = 2 ** 32;
/** FNV-1a 64 offset basis 0xcbf29ce484222325, as two 32-bit halves. */
const OFFSET_HIGH = 0xcbf29ce4;
const OFFSET_LOW = 0x84222325;
/** The FNV 64 prime is 2^40 + 0x1b3: a multiply is `h * 0x1b3 + (h << 40)`. */
const PRIME_LOW_TERM = 0x1b3;

/**
 * FNV-1a 64 over the UTF-8 bytes of `text`, as 16 hex digits. Two 32-bit halves held in
 * doubles keep every product below 2^53, so the arithmetic is exact without BigInt.
 *
 * @example
 * fnv1a64Hex('a'); // 'af63dc4c8601ec8c'
 */
export function fnv1a64Hex(text: string): string {
  let high = OFFSET_HIGH;
  let low = OFFSET_LOW;
  const mix = (byte: number) => {
    low = (low ^ byte) >>> 0;
    const lowProduct = low * PRIME_LOW_TERM;
    const carry = Math.floor(lowProduct / TWO_32);
    // (h << 40) adds low's bits, shifted up by 8, to the high half only.
    high = (high * PRIME_LOW_TERM + carry + ((low << 8) >>> 0)) % TWO_32;
    low = lowProduct % TWO_32;
  };
  for (const char of text) {
    const code = char.codePointAt(0) ?? 0;
    if (code < 0x80) mix(code);
    else if (code < 0x800) {
      mix(0xc0 | (code >> 6));
      mix(0x80 | (code & 0x3f));
    } else if (code < 0x10000) {
      mix(0xe0 | (code >> 12));
      mix(0x80 | ((code >> 6) & 0x3f));
      mix(0x80 | (code & 0x3f));
    } else {
      mix(0xf0 | (code >> 18));
      mix(0x80 | ((code >> 12) & 0x3f));
      mix(0x80 | ((code >> 6) & 0x3f));
      mix(0x80 | (code & 0x3f));
    }
  }
  return high.toString(16).padStart(8, '0') + low.toString(16).padStart(8, '0');
}

/** How many patterns are in each status; every status is present. */
export function countByStatus(patterns: readonly Pick<Pattern, 'status'>[]): PatternCounts {
  const counts = Object.fromEntries(PATTERN_STATUSES.map((status) => [status, 0])) as PatternCounts;
  for (const pattern of patterns) counts[pattern.status] += 1;
  return counts;
}

/**
 * What the store records about a version (its item in the table).
 *
 * @example
 * versionMetadata(set, { runId: 'run-7', iteration: 4 });
 * // { version: 4, parentVersion: 3, patternCount: { active: 40, ... }, checksum: '...', ... }
 */
export function versionMetadata(set: PatternSet, createdBy: PublishedBy = {}): PatternSetVersion {
  return PatternSetVersionSchema.parse({
    version: set.version,
    createdAt: set.createdAt,
    parentVersion: set.parentVersion,
    reason: set.reason,
    patternCount: countByStatus(set.patterns),
    checksum: patternSetChecksum(set),
    createdBy,
  });
}

/** Whether a stored body can be used, and why not. */
export type BodyCheck =
  | { readonly valid: true; readonly set: PatternSet }
  | { readonly valid: false; readonly reason: string };

/**
 * Checks a stored body (`undefined` when it is missing) against the version item that
 * describes it: JSON, `PatternSetSchema`, the same version number, the recorded checksum.
 * A body that parses but holds other content (overwritten, or another version's) is as
 * unusable as one that does not parse.
 *
 * @example
 * checkPatternSetBody(await readBody(key), metadata); // { valid: false, reason: 'body is missing' }
 */
export function checkPatternSetBody(
  text: string | undefined,
  metadata: Pick<PatternSetVersion, 'version' | 'checksum'>,
): BodyCheck {
  if (text === undefined) return { valid: false, reason: 'body is missing' };
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch (error) {
    return { valid: false, reason: `body is not JSON (${(error as Error).message})` };
  }
  const parsed = PatternSetSchema.safeParse(json);
  if (!parsed.success)
    return {
      valid: false,
      reason: `body does not match PatternSetSchema: ${formatZodIssues(parsed.error).join('; ')}`,
    };
  const set = parsed.data;
  if (set.version !== metadata.version)
    return { valid: false, reason: `body is version ${set.version}, not ${metadata.version}` };
  const checksum = patternSetChecksum(set);
  if (checksum !== metadata.checksum)
    return {
      valid: false,
      reason: `body checksum ${checksum} is not the recorded ${metadata.checksum}`,
    };
  return { valid: true, set };
}

/** What fallback needs of a version: its number and where it came from. */
export interface VersionLineage {
  readonly version: number;
  readonly parentVersion?: number | undefined;
}

/**
 * The versions to try, best first, when version `from` is unusable: its ancestors
 * (parent, grandparent, ...: each was current when its child was published), then every
 * other earlier version, newest first (a version that lost its publish race, or one on a
 * branch a rollback left). Versions after `from` never stand in for it.
 *
 * @example
 * fallbackOrder([{ version: 4, parentVersion: 2 }, { version: 3, parentVersion: 2 },
 *   { version: 2, parentVersion: 1 }, { version: 1 }], 4); // [2, 1, 3]
 */
export function fallbackOrder(versions: readonly VersionLineage[], from: number): number[] {
  const byVersion = new Map(versions.map((entry) => [entry.version, entry]));
  const order: number[] = [];
  let child = from;
  let parent = byVersion.get(from)?.parentVersion;
  // A parent is always older than its child; anything else is a corrupt record, so stop.
  while (parent !== undefined && parent < child && byVersion.has(parent)) {
    order.push(parent);
    child = parent;
    parent = byVersion.get(parent)?.parentVersion;
  }
  const rest = versions
    .map((entry) => entry.version)
    .filter((version) => version < from && !order.includes(version))
    .sort((a, b) => b - a);
  return [...order, ...rest];
}

/** The outcome of {@link chooseFallback}. */
export interface FallbackChoice<V extends VersionLineage> {
  /** The first usable version in {@link fallbackOrder}; absent when none is. */
  readonly chosen?: { readonly metadata: V; readonly set: PatternSet };
  /** Every version tried and refused, in the order tried. */
  readonly skipped: readonly { readonly version: number; readonly reason: string }[];
}

/**
 * Tries the versions of {@link fallbackOrder} one at a time (each check reads one body)
 * and stops at the first usable one.
 *
 * @example
 * const { chosen, skipped } = await chooseFallback(versions, 3, (v) => store.check(v));
 */
export async function chooseFallback<V extends VersionLineage>(
  versions: readonly V[],
  from: number,
  check: (metadata: V) => BodyCheck | Promise<BodyCheck>,
): Promise<FallbackChoice<V>> {
  const byVersion = new Map(versions.map((entry) => [entry.version, entry]));
  const skipped: { version: number; reason: string }[] = [];
  for (const version of fallbackOrder(versions, from)) {
    const metadata = byVersion.get(version);
    if (metadata === undefined) continue;
    const result = await check(metadata);
    if (result.valid) return { chosen: { metadata, set: result.set }, skipped };
    skipped.push({ version, reason: result.reason });
  }
  return { skipped };
}

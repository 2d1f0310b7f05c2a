/**
 * What importing a pattern bundle changes in the registry, decided before anything is
 * written: which patterns are added, which merged into a stored one (and over which version),
 * and which skipped, each with its reason.
 *
 * Double counting. A pattern's `uses` and `successes` are totals over its sources (the runs
 * that taught or used it), and the schema keeps no count per source. A bundle exported from
 * here, used elsewhere and imported back carries totals that already include ours. So the
 * counts are summed only when the bundle's sources and the stored ones have no run in
 * common (by run id, as the run-end merge tells runs apart, registry/merge.ts): then no use was counted on both sides. When they share a run,
 * the side with more uses is kept whole (its uses and successes together): the other side's
 * new uses may be lost, but none is counted twice, and a pattern imported again changes
 * nothing.
 */
import type {
  PatternSource,
  RegistryPattern,
  RegistryScope,
  SharedProvenance,
} from '../schemas/learning.js';
import { canonicalJson } from '../patterns/pattern-set-versions.js';
import type { PatternBundle } from './bundle.js';
import { weightedAverage } from './registry/combine.js';

export interface ImportOptions {
  /** Where every pattern goes; absent, each pattern goes to its own scope. */
  scope?: RegistryScope;
  /** When the import happens (ISO): merged patterns' `updatedAt`. */
  now: string;
  /** The bundle's digest, kept on each imported source as where it came from. */
  bundleDigest: string;
  /** Who signed the bundle, when it came signed: kept on each source with the digest. */
  signedBy?: Omit<SharedProvenance, 'bundle'>;
  /**
   * Scopes patterns may go to without `scope` (those a listing finds); a pattern of another
   * scope is skipped, since nothing would list or use it. Absent: every scope.
   */
  knownScopes?: readonly RegistryScope[];
  /** `<scope> <patternId>` of archived patterns: pruned ones are not brought back. */
  archived?: ReadonlySet<string>;
}

export interface ImportPlan {
  /** New to their scope: saved with no expected version (created). */
  added: RegistryPattern[];
  /** Stored already with other content: saved over `expectedVersion`. */
  merged: { pattern: RegistryPattern; expectedVersion: number }[];
  skipped: { scope: RegistryScope; patternId: string; reason: string }[];
}

/** A pattern as the plan holds it: stored (with its version) or added by this plan. */
interface Entry {
  pattern: RegistryPattern;
  storedVersion?: number;
  changed: boolean;
}

const keyOf = (scope: RegistryScope, patternId: string) => `${scope} ${patternId}`;
const sourceKey = (source: PatternSource) => source.runId;

/**
 * @example
 * planImport(await registry.listPatterns('org'), bundle, { scope: 'org', now, bundleDigest });
 * // { added: [...], merged: [{ pattern, expectedVersion: 3 }], skipped: [{ scope, patternId, reason: 'already present' }] }
 */
export function planImport(
  existing: readonly RegistryPattern[],
  bundle: PatternBundle,
  options: ImportOptions,
): ImportPlan {
  const entries = new Map<string, Entry>(
    existing.map((pattern) => [
      keyOf(pattern.scope, pattern.patternId),
      { pattern, storedVersion: pattern.version, changed: false },
    ]),
  );
  const skipped: ImportPlan['skipped'] = [];
  const known = options.knownScopes && new Set(options.knownScopes);
  for (const incoming of bundle.patterns) {
    const scope = options.scope ?? incoming.scope;
    const key = keyOf(scope, incoming.patternId);
    const skip = (reason: string) => skipped.push({ scope, patternId: incoming.patternId, reason });
    if (options.archived?.has(key)) {
      skip('archived here (pruned): an import does not bring it back');
      continue;
    }
    if (!options.scope && known && !known.has(scope)) {
      skip(
        `scope ${scope} is not one of this registry's (${[...known].join(', ')}): import it with --scope`,
      );
      continue;
    }
    const stamped = stampProvenance({ ...incoming, scope }, options);
    const entry = entries.get(key);
    if (!entry) {
      entries.set(key, { pattern: { ...stamped, version: 1 }, changed: true });
      continue;
    }
    const merged = mergePatterns(entry.pattern, stamped, options.now);
    if (sameContent(merged, entry.pattern)) skip('already present');
    else entries.set(key, { ...entry, pattern: merged, changed: true });
  }
  const changed = [...entries.values()].filter((entry) => entry.changed);
  return {
    added: changed.filter((entry) => entry.storedVersion === undefined).map((e) => e.pattern),
    merged: changed.flatMap((entry) =>
      entry.storedVersion === undefined
        ? []
        : [{ pattern: entry.pattern, expectedVersion: entry.storedVersion }],
    ),
    skipped,
  };
}

/**
 * Each source remembers the bundle it came in, and a signed one who signed it; one stamped
 * already keeps its first (a pattern shared on keeps where it first arrived).
 */
function stampProvenance(
  pattern: RegistryPattern,
  { bundleDigest, signedBy }: Pick<ImportOptions, 'bundleDigest' | 'signedBy'>,
): RegistryPattern {
  const shared = signedBy && { bundle: bundleDigest, ...signedBy };
  return {
    ...pattern,
    sources: pattern.sources.map((source) => ({
      ...source,
      bundle: source.bundle ?? bundleDigest,
      ...(shared && !source.shared ? { shared } : {}),
    })),
  };
}

/** Equal but for when it was saved: nothing to write. */
function sameContent(a: RegistryPattern, b: RegistryPattern): boolean {
  const content = (p: RegistryPattern) => canonicalJson({ ...p, updatedAt: '', version: 0 });
  return content(a) === content(b);
}

/**
 * The stored pattern with what the incoming one adds: its new sources, tags and trend
 * points, its counts as the header says, its words when it was updated later, and the
 * mean iterations re-averaged over the new runs' tasks (registry/combine.ts).
 */
export function mergePatterns(
  stored: RegistryPattern,
  incoming: RegistryPattern,
  now: string,
): RegistryPattern {
  const storedRuns = new Set(stored.sources.map(sourceKey));
  const newSources = incoming.sources.filter((source) => !storedRuns.has(sourceKey(source)));
  const shareARun = newSources.length < incoming.sources.length;
  const counts = shareARun
    ? incoming.uses > stored.uses
      ? incoming
      : stored
    : { uses: stored.uses + incoming.uses, successes: stored.successes + incoming.successes };
  const words = isLater(incoming.updatedAt, stored.updatedAt) ? incoming : stored;
  const successRate = counts.uses === 0 ? stored.successRate : counts.successes / counts.uses;
  const countsChanged = counts.uses !== stored.uses || counts.successes !== stored.successes;
  const lastUsedAt = [stored.lastUsedAt, incoming.lastUsedAt].reduce((a, b) =>
    a === undefined || (b !== undefined && isLater(b, a)) ? b : a,
  );
  const merged: RegistryPattern = {
    // The stored pattern without its words, which come whole from the later side.
    ...withoutWords(stored),
    ...wordsOf(words),
    // The stored order kept, new tags after: a tag list in another order is no change.
    tags: [...new Set([...stored.tags, ...incoming.tags])],
    ...averageOf(stored, incoming, newSources),
    uses: counts.uses,
    successes: counts.successes,
    successRate,
    trend: mergedTrend(
      stored,
      incoming,
      countsChanged ? [{ at: now, successRate, uses: counts.uses }] : [],
    ),
    sources: [...stored.sources, ...newSources],
    createdAt: isLater(stored.createdAt, incoming.createdAt)
      ? incoming.createdAt
      : stored.createdAt,
    ...(lastUsedAt === undefined ? {} : { lastUsedAt }),
  };
  return sameContent(merged, stored) ? stored : { ...merged, updatedAt: now };
}

const WORDS = ['title', 'body', 'category', 'issue', 'template'] as const;
type Words = Pick<RegistryPattern, (typeof WORDS)[number]>;

/** The fields that say what the pattern is; absent ones stay absent (no `undefined` member). */
function wordsOf(pattern: RegistryPattern): Words {
  return Object.fromEntries(
    WORDS.filter((key) => pattern[key] !== undefined).map((key) => [key, pattern[key]]),
  ) as Words;
}

function withoutWords(pattern: RegistryPattern): Omit<RegistryPattern, keyof Words> {
  const rest: Partial<RegistryPattern> = { ...pattern };
  for (const key of WORDS) delete rest[key];
  return rest as Omit<RegistryPattern, keyof Words>;
}

/** The mean iterations of both sides, weighted by the tasks each counted (new runs only). */
function averageOf(
  stored: RegistryPattern,
  incoming: RegistryPattern,
  newSources: readonly PatternSource[],
): Pick<RegistryPattern, 'averageIterations'> {
  const averageIterations = weightedAverage(
    { average: stored.averageIterations, sources: stored.sources },
    { average: incoming.averageIterations, sources: newSources },
  );
  return averageIterations === undefined ? {} : { averageIterations };
}

/** Dates compared as instants: two offsets may name the same moment. */
const isLater = (a: string, b: string) => Date.parse(a) > Date.parse(b);

/** Both trends' points and `added`, once each, oldest first. */
function mergedTrend(
  a: RegistryPattern,
  b: RegistryPattern,
  added: RegistryPattern['trend'],
): RegistryPattern['trend'] {
  const all = [...a.trend, ...b.trend, ...added];
  const points = new Map(all.map((point) => [canonicalJson(point), point]));
  return [...points.values()].sort((x, y) => Date.parse(x.at) - Date.parse(y.at));
}

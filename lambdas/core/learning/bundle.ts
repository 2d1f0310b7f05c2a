/**
 * The pattern bundle: the file `ralph patterns export` writes and `ralph patterns import`
 * reads (cross-loop-learning.md "Export/Import Patterns"), so that registry patterns (and a
 * project's rules) are backed up or shared between teams and accounts. Versioned: a reader
 * says which versions it reads instead of guessing at another's shape.
 */
import { z } from 'zod';
import { InvalidInputError } from '../errors.js';
import {
  ProjectRuleSchema,
  RegistryPatternSchema,
  RegistryScopeSchema,
  type ProjectRule,
  type RegistryPattern,
  type RegistryScope,
} from '../schemas/learning.js';
import { formatZodPath, parseJsonText, parseOrThrow } from '../shared/validation.js';

export const BUNDLE_FORMAT = 'ralph-pattern-bundle';
/** The bundle versions this code reads (and the one it writes: the last). */
export const BUNDLE_VERSIONS_READ = [1] as const;
const BUNDLE_VERSION = BUNDLE_VERSIONS_READ[BUNDLE_VERSIONS_READ.length - 1]!;

export const PatternBundleSchema = z.strictObject({
  format: z.literal(BUNDLE_FORMAT),
  version: z.literal(BUNDLE_VERSION),
  exportedAt: z.iso.datetime({ offset: true }),
  source: z.strictObject({
    /** The project whose registry and rules were exported, when it was one project's. */
    projectId: z.string().min(1).optional(),
    /** The registry scopes the patterns were read from. */
    scopes: z.array(RegistryScopeSchema),
  }),
  patterns: z.array(RegistryPatternSchema),
  /** The exported projects' rules, active and deprecated. */
  rules: z.array(ProjectRuleSchema).optional(),
});
export type PatternBundle = z.infer<typeof PatternBundleSchema>;

export interface BundleContent {
  exportedAt: string;
  scopes: readonly RegistryScope[];
  projectId?: string;
  patterns: readonly RegistryPattern[];
  rules?: readonly ProjectRule[];
}

/**
 * A bundle of `content`, patterns ordered by scope then id and rules by project then id, so
 * that the same registry always exports the same text (apart from `exportedAt`).
 *
 * @example
 * bundleOf({ exportedAt: '2026-02-01T10:00:00Z', scopes: ['org'], patterns: [] });
 */
export function bundleOf(content: BundleContent): PatternBundle {
  const byText = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);
  return {
    format: BUNDLE_FORMAT,
    version: BUNDLE_VERSION,
    exportedAt: content.exportedAt,
    source: {
      ...(content.projectId === undefined ? {} : { projectId: content.projectId }),
      scopes: [...content.scopes],
    },
    patterns: [...content.patterns].sort(
      (a, b) => byText(a.scope, b.scope) || byText(a.patternId, b.patternId),
    ),
    ...(content.rules === undefined
      ? {}
      : {
          rules: [...content.rules].sort(
            (a, b) => byText(a.projectId, b.projectId) || byText(a.ruleId, b.ruleId),
          ),
        }),
  };
}

/**
 * Reads a bundle file's text whole, before anything is written: a wrong format or version
 * is named alone (another version's fields would only be noise), anything else with every
 * bad path, unknown keys with the nearest known one, and a pattern or rule twice.
 *
 * @example
 * parseBundle(await readFile('patterns.json', 'utf8'), 'patterns.json');
 */
export function parseBundle(text: string, where: string): PatternBundle {
  const value = parseJsonText(text, where);
  refuseOtherKinds(value, where);
  const bundle = parseOrThrow(PatternBundleSchema, value, where);
  const duplicates = [
    ...duplicatesOf(bundle.patterns, (p) => `${p.scope} ${p.patternId}`, 'patterns', 'patternId'),
    ...duplicatesOf(bundle.rules ?? [], (r) => `${r.projectId} ${r.ruleId}`, 'rules', 'ruleId'),
  ];
  if (duplicates.length > 0) throw new InvalidInputError(where, duplicates);
  return bundle;
}

function refuseOtherKinds(value: unknown, where: string): void {
  if (typeof value !== 'object' || value === null || Array.isArray(value))
    throw new InvalidInputError(where, [
      `(root): expected a pattern bundle (an object with format "${BUNDLE_FORMAT}")`,
    ]);
  const { format, version } = value as { format?: unknown; version?: unknown };
  if (format !== BUNDLE_FORMAT)
    throw new InvalidInputError(where, [
      `format: expected "${BUNDLE_FORMAT}", got ${JSON.stringify(format) ?? 'nothing'}: not a pattern bundle (\`ralph patterns export\` writes one)`,
    ]);
  if (!(BUNDLE_VERSIONS_READ as readonly unknown[]).includes(version))
    throw new InvalidInputError(where, [
      `version: ${JSON.stringify(version) ?? 'missing'} is not read here; this ralph reads bundle version ${BUNDLE_VERSIONS_READ.join(', ')}`,
    ]);
}

function duplicatesOf<T>(
  items: readonly T[],
  keyOf: (item: T) => string,
  list: string,
  idKey: string,
): string[] {
  const first = new Map<string, number>();
  const issues: string[] = [];
  items.forEach((item, index) => {
    const key = keyOf(item);
    const earlier = first.get(key);
    if (earlier === undefined) first.set(key, index);
    else
      issues.push(
        `${formatZodPath([list, index, idKey])}: the same as ${formatZodPath([list, earlier])} (${key}); a bundle holds each once`,
      );
  });
  return issues;
}

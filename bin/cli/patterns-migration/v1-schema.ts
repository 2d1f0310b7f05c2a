/**
 * The legacy (v1) pattern file, `learned_patterns.json` version "1.0": narrative patterns
 * from scoping validation, plus free-form `service_insights` and `scoping_rules` objects
 * (shared/design/dual-mode-evaluation.md, "Current Pattern Structure").
 *
 * The schema is as strict as the design document's `PatternV1` where it matters (`type`,
 * `description`, `discovered_at`) and lenient where the document is silent: unknown fields
 * are kept (and reported by the migration, never silently dropped), `example` defaults to
 * `""`, `source` to `"scoping_validation"`.
 */
import { z } from 'zod';

const DATE_TIME =
  /^(\d{4})-(\d{2})-(\d{2})(?:[T ]([01]\d|2[0-3]):([0-5]\d)(?::([0-5]\d)(\.\d+)?)?)?\s*(Z|z|[+-](?:[01]\d|2[0-3])(?::?[0-5]\d)?)?$/;

export interface NormalisedTimestamp {
  /** ISO 8601 with seconds and a zone: `2026-01-13T21:33:54.436502Z`. */
  readonly iso: string;
  /** The input had no zone and was read as UTC. */
  readonly assumedUtc: boolean;
}

/**
 * A v1 timestamp as v2 stores it. v1 files were written by Python's `isoformat()`, which
 * omits the zone for naive datetimes (`2026-01-13T21:33:54.436502`): those are read as UTC.
 * Fractional seconds are kept as written; `+0100` and `+01` become `+01:00`; a date alone
 * becomes midnight UTC. Returns undefined for anything else, including impossible dates.
 *
 * @example
 * normaliseTimestamp('2026-01-13T21:33:54.436502');
 * // → { iso: '2026-01-13T21:33:54.436502Z', assumedUtc: true }
 */
export function normaliseTimestamp(text: string): NormalisedTimestamp | undefined {
  const match = DATE_TIME.exec(text.trim());
  if (!match) return undefined;
  const [, year, month, day, hour = '00', minute = '00', second = '00', fraction = '', zone] =
    match;
  const date = `${year}-${month}-${day}`;
  const check = new Date(`${date}T00:00:00Z`);
  if (Number.isNaN(check.getTime()) || check.toISOString().slice(0, 10) !== date) return;
  let offset = 'Z';
  if (zone !== undefined && zone.toUpperCase() !== 'Z') {
    const digits = zone.slice(1).replace(':', '');
    offset = `${zone[0]}${digits.slice(0, 2)}:${digits.slice(2) || '00'}`;
  }
  return {
    iso: `${date}T${hour}:${minute}:${second}${fraction}${offset}`,
    assumedUtc: zone === undefined,
  };
}

const TimestampV1Schema = z.string().refine((text) => normaliseTimestamp(text) !== undefined, {
  message: 'expected an ISO 8601 date-time, like 2026-01-13T21:33:54.436502',
});

/** One v1 pattern (the design document's `PatternV1`). */
export const PatternV1Schema = z.looseObject({
  type: z.enum(['good_pattern', 'bad_pattern']),
  description: z.string(),
  example: z.string().default(''),
  discovered_at: TimestampV1Schema,
  source: z.string().default('scoping_validation'),
});
export type PatternV1 = z.infer<typeof PatternV1Schema>;

/** A scoping rule written as an object: its text in `rule` (or `description`). */
export const ScopingRuleObjectSchema = z
  .looseObject({
    rule: z.string().optional(),
    description: z.string().optional(),
    /** An explicit verdict wins over the wording (see `classifyScopingRule`). */
    type: z.enum(['good', 'bad', 'good_pattern', 'bad_pattern']).optional(),
    example: z.string().optional(),
    reason: z.string().optional(),
  })
  .refine((rule) => rule.rule !== undefined || rule.description !== undefined, {
    message: 'expected a "rule" or "description" string',
  });
export type ScopingRuleObject = z.infer<typeof ScopingRuleObjectSchema>;

/**
 * Whether a `scoping_rules` value is meant as a rule: a string, or an object with a `rule` or
 * `description` key. Anything else (numbers, booleans, null, nested lists, other objects)
 * is a setting or a note, migrated by `scoping-values.ts`.
 */
export function isRuleShaped(value: unknown): value is string | Record<string, unknown> {
  if (typeof value === 'string') return true;
  return (
    typeof value === 'object' &&
    value !== null &&
    !Array.isArray(value) &&
    ('rule' in value || 'description' in value)
  );
}

/**
 * `scoping_rules`: topic → anything. Only what is meant as a rule is checked (see
 * {@link isRuleShaped}), by hand rather than with a union so a bad rule is reported at its
 * own path (`scoping_rules.oauth[2].rule`), not as "invalid input" on the whole topic: a
 * rule written wrong is refused, never carried as if it were a note.
 */
const ScopingRulesV1Schema = z.record(z.string(), z.unknown()).superRefine((rules, ctx) => {
  const checkItem = (item: unknown, path: (string | number)[]) => {
    if (typeof item === 'string' || !isRuleShaped(item)) return;
    const parsed = ScopingRuleObjectSchema.safeParse(item);
    if (!parsed.success)
      for (const issue of parsed.error.issues)
        ctx.addIssue({
          code: 'custom',
          message: issue.message,
          path: [...path, ...(issue.path as (string | number)[])],
          input: item,
        });
  };
  for (const [key, value] of Object.entries(rules)) {
    if (Array.isArray(value)) value.forEach((item, index) => checkItem(item, [key, index]));
    else checkItem(value, [key]);
  }
});

/** The whole v1 file. */
export const PatternFileV1Schema = z.looseObject({
  version: z.literal('1.0'),
  last_updated: TimestampV1Schema.optional(),
  patterns: z.array(PatternV1Schema),
  /** Service → anything (text, lists, objects); every string in it is read for paths. */
  service_insights: z.record(z.string(), z.unknown()).default({}),
  scoping_rules: ScopingRulesV1Schema.default({}),
});
export type PatternFileV1 = z.infer<typeof PatternFileV1Schema>;

/** The top-level fields v1 defines; anything else is reported as not carried over. */
export const V1_TOP_LEVEL_FIELDS: readonly string[] = Object.keys(PatternFileV1Schema.shape);
/** The pattern fields v1 defines. */
export const V1_PATTERN_FIELDS: readonly string[] = Object.keys(PatternV1Schema.shape);

/**
 * v1 `scoping_rules` become patterns too. A rule has no `type`, so it is classified:
 *
 * 1. an explicit `"type"` on a rule object wins (`good`/`good_pattern`, `bad`/`bad_pattern`);
 * 2. a rule that forbids ("Do not combine X with Y", "Never…", "Avoid…", "No…", "X should
 *    not be grouped with Y") or that asks to split ("Split X and Y into separate stories",
 *    "Keep X and Y apart") is `bad`: a story matching it is what the rule warns about;
 * 3. otherwise the topic key decides: `do_not_combine`, `avoid_*`, `split_*`, `anti_patterns`
 *    → `bad`; `keep_together`, `prefer_*`, `good_*` → `good`;
 * 4. otherwise the rule states what to do ("Keep X together", "One service per story"):
 *    `good`.
 *
 * The reason for every verdict is kept, and the migration report lists it. Entries that are
 * not rules (numbers, booleans, null, other objects) are split off here and migrated by
 * `scoping-values.ts`.
 */
import { isRuleShaped, type ScopingRuleObject } from './v1-schema.js';

/** Where a `scoping_rules` entry sits, whatever it holds. */
interface ScopingEntryRef {
  /** Where it came from: `scoping_rules.keep_together[1]`. */
  readonly at: string;
  /** The topic key it was listed under. */
  readonly topic: string;
  /**
   * Position among all `scoping_rules` entries (rules and values alike), in input order:
   * topics in key order, then list order.
   */
  readonly index: number;
}

/** One rule, whatever shape the v1 file gave it. */
export interface FlatScopingRule extends ScopingEntryRef {
  /** The rule itself, as written. */
  readonly text: string;
  /** `example` of a rule object, if any. */
  readonly examples: readonly string[];
  /** `reason` of a rule object, if any. */
  readonly reasons: readonly string[];
  readonly explicitType?: 'good' | 'bad';
  /** Fields of a rule object with no v2 counterpart. */
  readonly extraFields: readonly string[];
}

/** A `scoping_rules` entry that is not a rule: a number, a boolean, null, an object, … */
export interface ScopingValue extends ScopingEntryRef {
  readonly value: unknown;
}

export interface ScopingEntries {
  readonly rules: FlatScopingRule[];
  readonly values: ScopingValue[];
  /** `rules.length + values.length`: every entry of `scoping_rules`. */
  readonly count: number;
}

export interface ScopingRuleVerdict {
  readonly type: 'good' | 'bad';
  /** Why, in words: `starts with "do not"`, `topic "keep_together"`, ... */
  readonly because: string;
}

const OBJECT_FIELDS = new Set(['rule', 'description', 'type', 'example', 'reason']);

function toRule(base: ScopingEntryRef, item: string | ScopingRuleObject): FlatScopingRule {
  if (typeof item === 'string')
    return { ...base, text: item, examples: [], reasons: [], extraFields: [] };
  const explicitType = item.type?.startsWith('good')
    ? 'good'
    : item.type?.startsWith('bad')
      ? 'bad'
      : undefined;
  return {
    ...base,
    text: item.rule ?? item.description ?? '',
    examples: item.example ? [item.example] : [],
    reasons: item.reason ? [item.reason] : [],
    ...(explicitType ? { explicitType } : {}),
    extraFields: Object.keys(item).filter((field) => !OBJECT_FIELDS.has(field)),
  };
}

/**
 * Every entry of a v1 `scoping_rules` object (already checked by the v1 schema), split into
 * rules and values. A topic's list gives one entry per element, anything else one entry
 * for the topic (an empty list too, so that it is accounted for). A string or an object
 * with a `rule` or `description` is a rule; anything else is a value.
 *
 * @example
 * const { rules, values } = splitScopingRules({
 *   keep_together: ['OAuth per platform', 7],
 *   max_services: 'At most two',
 * });
 * rules.map((rule) => rule.at); // → ['scoping_rules.keep_together[0]', 'scoping_rules.max_services']
 * values.map((value) => value.at); // → ['scoping_rules.keep_together[1]']
 */
export function splitScopingRules(scopingRules: Record<string, unknown>): ScopingEntries {
  const rules: FlatScopingRule[] = [];
  const values: ScopingValue[] = [];
  let index = 0;
  for (const [topic, value] of Object.entries(scopingRules)) {
    const items =
      Array.isArray(value) && value.length > 0
        ? value.map((item, i) => ({ item: item as unknown, at: `scoping_rules.${topic}[${i}]` }))
        : [{ item: value, at: `scoping_rules.${topic}` }];
    for (const { item, at } of items) {
      const base = { at, topic, index: index++ };
      if (isRuleShaped(item)) rules.push(toRule(base, item as string | ScopingRuleObject));
      else values.push({ ...base, value: item });
    }
  }
  return { rules, values, count: index };
}

const FORBIDS =
  /^\s*(do not|don't|dont|never|avoid|must not|should not|shouldn't|cannot|can't|no|split|separate|break up)\b/i;
const KEEP_APART = /^\s*keep\b.*\b(apart|separate|separately)\b/i;
const NEGATED_COMBINE =
  /\b(?:not|never|n't)\s+(?:be\s+)?(?:combin|group|mix|bundl|merg|put|pair|lump)\w*/i;
const BAD_TOPIC = /\b(avoid|anti|bad|donts?|never|forbid\w*|split|separate|not combine)\b/;
const GOOD_TOPIC = /\b(keep|together|good|prefer\w*|do)\b/;

/** A topic key as words: `doNotCombine`, `do-not_combine` → `do not combine`. */
export function topicWords(topic: string): string {
  return topic
    .replace(/([a-z])([A-Z])/g, '$1 $2')
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, ' ')
    .replace(/\bdon t\b/g, 'dont')
    .trim();
}

/**
 * Whether a scoping rule is a `good` or a `bad` pattern, and why (see the module comment).
 *
 * @example
 * classifyScopingRule('oauth', 'Do not combine Pinterest OAuth with Facebook OAuth');
 * // → { type: 'bad', because: 'the rule starts with "Do not"' }
 */
export function classifyScopingRule(
  topic: string,
  text: string,
  explicitType?: 'good' | 'bad',
): ScopingRuleVerdict {
  if (explicitType) return { type: explicitType, because: `explicit "type": "${explicitType}"` };
  const forbids = FORBIDS.exec(text);
  if (forbids) return { type: 'bad', because: `the rule starts with "${forbids[1]}"` };
  const apart = KEEP_APART.exec(text);
  if (apart) return { type: 'bad', because: `the rule says to keep things ${apart[1]}` };
  const negated = NEGATED_COMBINE.exec(text);
  if (negated) return { type: 'bad', because: `the rule says "${negated[0]}"` };
  const words = topicWords(topic);
  if (BAD_TOPIC.test(words)) return { type: 'bad', because: `listed under "${topic}"` };
  if (GOOD_TOPIC.test(words)) return { type: 'good', because: `listed under "${topic}"` };
  return { type: 'good', because: 'the rule says what to do (no forbidding wording or topic)' };
}

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
 * The reason for every verdict is kept, and the migration report lists it.
 */
import type { ScopingRuleValue } from './v1-schema.js';

/** One rule, whatever shape the v1 file gave it. */
export interface FlatScopingRule {
  /** Where it came from: `scoping_rules.keep_together[1]`. */
  readonly at: string;
  /** The topic key it was listed under. */
  readonly topic: string;
  /** Position among all rules, in input order (topics in key order, then list order). */
  readonly index: number;
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

export interface ScopingRuleVerdict {
  readonly type: 'good' | 'bad';
  /** Why, in words: `starts with "do not"`, `topic "keep_together"`, ... */
  readonly because: string;
}

const OBJECT_FIELDS = new Set(['rule', 'description', 'type', 'example', 'reason']);

/**
 * Every rule of a v1 `scoping_rules` object, one per string: a topic's string is one rule,
 * each element of a topic's list is one rule, a rule object is one rule.
 *
 * @example
 * flattenScopingRules({ keep_together: ['OAuth per platform'], max_services: 'At most two' })
 *   .map((rule) => rule.at);
 * // → ['scoping_rules.keep_together[0]', 'scoping_rules.max_services']
 */
export function flattenScopingRules(rules: Record<string, ScopingRuleValue>): FlatScopingRule[] {
  const flat: FlatScopingRule[] = [];
  for (const [topic, value] of Object.entries(rules)) {
    const items = Array.isArray(value)
      ? value.map((item, i) => ({ item, at: `scoping_rules.${topic}[${i}]` }))
      : [{ item: value, at: `scoping_rules.${topic}` }];
    for (const { item, at } of items) {
      const base = { at, topic, index: flat.length };
      if (typeof item === 'string') {
        flat.push({ ...base, text: item, examples: [], reasons: [], extraFields: [] });
        continue;
      }
      const explicitType = item.type?.startsWith('good')
        ? 'good'
        : item.type?.startsWith('bad')
          ? 'bad'
          : undefined;
      flat.push({
        ...base,
        text: item.rule ?? item.description ?? '',
        examples: item.example ? [item.example] : [],
        reasons: item.reason ? [item.reason] : [],
        ...(explicitType ? { explicitType } : {}),
        extraFields: Object.keys(item).filter((field) => !OBJECT_FIELDS.has(field)),
      });
    }
  }
  return flat;
}

const FORBIDS =
  /^\s*(do not|don't|dont|never|avoid|must not|should not|shouldn't|cannot|can't|no|split|separate|break up)\b/i;
const KEEP_APART = /^\s*keep\b.*\b(apart|separate|separately)\b/i;
const NEGATED_COMBINE =
  /\b(?:not|never|n't)\s+(?:be\s+)?(?:combin|group|mix|bundl|merg|put|pair|lump)\w*/i;
const BAD_TOPIC = /\b(avoid|anti|bad|donts?|never|forbid\w*|split|separate|not combine)\b/;
const GOOD_TOPIC = /\b(keep|together|good|prefer\w*|do)\b/;

/** A topic key as words: `doNotCombine`, `do-not_combine` → `do not combine`. */
function topicWords(topic: string): string {
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

/**
 * The `scoping_rules` entries that are not rules, each migrated with nothing lost:
 *
 * - a number that names an acceptance-criteria bound becomes that bound of the AC-count
 *   heuristic (`ac-bounds.ts`); so do such numbers inside an object
 *   (`acceptance_criteria: { min: 3, max: 7 }`);
 * - `true` under a name that requires what a story heuristic checks (`require_user_value`,
 *   `require_technical_area`) is that heuristic: the entry points at its weight;
 * - `false` is a rule switched off: skipped, saying so; unless the name reads as a
 *   permission or a negation (`allow_…`, `no_…`), where `false` may switch a rule on: carried;
 * - `null`, an empty list and an empty object hold nothing: skipped, saying so;
 * - anything else (other numbers, lists, objects, a `true` no heuristic checks, the fields
 *   of an object that are not bounds) is carried verbatim: the whole topic's value goes into
 *   the set's `legacy.scoping_rules`, and the report says why.
 */
import {
  ScoringWeightsSchema,
  type StoryHeuristics,
} from '../../../lambdas/core/schemas/evaluation.js';
import { AcBoundsFromV1, aboutAcceptanceCriteria, acBoundNamed } from './ac-bounds.js';
import type { PlacedEntry, SkippedEntry } from './report.js';
import { topicWords, type ScopingValue } from './scoping-rules.js';
import { describeValue, emptyValue } from './shapes.js';

type Weights = ReturnType<typeof ScoringWeightsSchema.parse>;
const DEFAULT_WEIGHTS: Weights = ScoringWeightsSchema.parse({});

/** Which story heuristic a name asks for, by its words. */
const CHECKS: readonly (readonly [keyof Weights, (words: ReadonlySet<string>) => boolean])[] = [
  ['titleQuality', (words) => words.has('title')],
  ['acCount', (words) => aboutAcceptanceCriteria([...words])],
  ['techSpecificity', (words) => words.has('technical') || words.has('tech')],
  ['userFocus', (words) => words.has('value') || words.has('focus') || words.has('benefit')],
  ['scopeCheck', (words) => words.has('scope')],
];
/** Words that make a boolean mean the opposite of "check this". */
const PERMISSIVE = new Set(
  'allow allowed allows optional skip ignore no not without disable disabled off never avoid dont'.split(
    ' ',
  ),
);

export interface PlacedValues {
  readonly placed: PlacedEntry[];
  readonly skipped: SkippedEntry[];
  /** The AC bounds, when a value set any. */
  readonly storyHeuristics?: StoryHeuristics;
  /** Topic → its whole v1 value, for every topic with something carried verbatim. */
  readonly carried: Record<string, unknown>;
}

const wordsOf = (...names: string[]) => names.flatMap((name) => topicWords(name).split(' '));

/**
 * Migrates every non-rule `scoping_rules` entry (see the module comment), in input order so
 * that the first of two conflicting bounds wins.
 *
 * @example
 * placeScopingValues(values, file.scoping_rules).placed[0];
 * // → { at: 'scoping_rules.max_acceptance_criteria', to: ['storyHeuristics.acceptanceCriteria.idealMax'], how: 'idealMax 8', … }
 */
export function placeScopingValues(
  values: readonly ScopingValue[],
  scopingRules: Record<string, unknown>,
): PlacedValues {
  const bounds = new AcBoundsFromV1();
  const placed: PlacedEntry[] = [];
  const skipped: SkippedEntry[] = [];
  const carried = new Map<string, unknown>();

  for (const { at, topic, index, value } of values) {
    const ref = { at, source: 'scoping_rule' as const, index };
    const legacyAt = `legacy.${at}`;
    const carry = (why: string, also: readonly string[] = []) => {
      carried.set(topic, scopingRules[topic]);
      placed.push({
        ...ref,
        to: [...also, legacyAt],
        how: `${why}: carried verbatim`,
        carried: { from: 'scoping_rules', key: topic },
      });
    };
    const words = wordsOf(topic);
    const empty = emptyValue(value);
    if (empty !== undefined) {
      skipped.push({ ...ref, reason: `${empty}: holds nothing to migrate` });
    } else if (typeof value === 'boolean') {
      const outcome = booleanOutcome(topic, words, value);
      if (outcome.kind === 'check') placed.push({ ...ref, to: [outcome.to], how: outcome.how });
      else if (outcome.kind === 'off') skipped.push({ ...ref, reason: outcome.reason });
      else carry(outcome.why);
    } else if (typeof value === 'number') {
      const bound = acBoundNamed(words);
      const result = bound && bounds.apply(bound, value, at);
      if (bound && result?.applied)
        placed.push({
          ...ref,
          to: [`storyHeuristics.acceptanceCriteria.${bound}`],
          how: result.note,
        });
      else
        carry(
          result && !result.applied ? result.reason : `${describeValue(value)} has no v2 setting`,
        );
    } else if (typeof value === 'object' && !Array.isArray(value)) {
      const { to, notes, rest } = boundsInObject(
        value as Record<string, unknown>,
        words,
        at,
        bounds,
      );
      if (to.length === 0)
        carry(
          `${describeValue(value)}, none of them an acceptance-criteria bound${rest.length > 0 ? ` (${rest.join('; ')})` : ''}`,
        );
      else if (rest.length === 0) placed.push({ ...ref, to, how: notes.join('; ') });
      else carry(`${notes.join('; ')}; the rest (${rest.join('; ')}) has no v2 setting`, to);
    } else {
      carry(`${describeValue(value)} has no v2 counterpart`);
    }
  }
  const acceptanceCriteria = bounds.result();
  return {
    placed,
    skipped,
    ...(acceptanceCriteria ? { storyHeuristics: { acceptanceCriteria } } : {}),
    carried: Object.fromEntries(carried),
  };
}

type BooleanOutcome =
  | { kind: 'check'; to: string; how: string }
  | { kind: 'off'; reason: string }
  | { kind: 'carry'; why: string };

function booleanOutcome(topic: string, words: readonly string[], value: boolean): BooleanOutcome {
  const set = new Set(words);
  if (words.some((word) => PERMISSIVE.has(word)))
    return {
      kind: 'carry',
      why: `${value}: "${topic}" reads as a permission or a negation, so no check fits`,
    };
  const checks = CHECKS.filter(([, names]) => names(set)).map(([name]) => name);
  const check = checks.length === 1 ? checks[0]! : undefined;
  if (!value)
    return {
      kind: 'off',
      reason: `false: the rule is off in v1, so there is nothing to check${check ? ` (the ${check} heuristic keeps its weight ${DEFAULT_WEIGHTS[check]})` : ''}`,
    };
  if (!check)
    return {
      kind: 'carry',
      why: `true: ${checks.length > 1 ? `"${topic}" names more than one heuristic (${checks.join(', ')})` : `no heuristic checks "${topic}"`}`,
    };
  return {
    kind: 'check',
    to: `scoringWeights.${check}`,
    how: `true: the ${check} heuristic checks it (weight ${DEFAULT_WEIGHTS[check]})`,
  };
}

/**
 * The acceptance-criteria bounds among the numbers of an object (at any depth, named by
 * the topic and the keys down to them), applied; the fields that are not, described.
 */
function boundsInObject(
  object: Record<string, unknown>,
  topicWords: readonly string[],
  at: string,
  bounds: AcBoundsFromV1,
): { to: string[]; notes: string[]; rest: string[] } {
  const to: string[] = [];
  const notes: string[] = [];
  const rest: string[] = [];
  const walk = (value: unknown, path: readonly string[]) => {
    const where = path.join('.');
    if (
      typeof value === 'object' &&
      value !== null &&
      !Array.isArray(value) &&
      emptyValue(value) === undefined
    ) {
      for (const [key, inner] of Object.entries(value)) walk(inner, [...path, key]);
      return;
    }
    const bound =
      typeof value === 'number' ? acBoundNamed([...topicWords, ...wordsOf(...path)]) : undefined;
    if (!bound) {
      rest.push(`${where}: ${describeValue(value)}`);
      return;
    }
    const result = bounds.apply(bound, value, `${at}.${where}`);
    if (!result.applied) {
      rest.push(`${where}: ${result.reason}`);
      return;
    }
    to.push(`storyHeuristics.acceptanceCriteria.${bound}`);
    notes.push(`${where} → ${result.note}`);
  };
  walk(object, []);
  return { to, notes, rest };
}

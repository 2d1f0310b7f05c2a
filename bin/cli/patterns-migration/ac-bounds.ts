/**
 * v1 acceptance-criteria numbers (`max_acceptance_criteria: 8`, `acceptance_criteria:
 * { min: 3, max: 7 }`) as the bounds of the v2 AC-count heuristic
 * (`storyHeuristics.acceptanceCriteria`).
 *
 * A number is a bound when its name (the topic key and any keys above it, as words) is about
 * acceptance criteria (`ac`, `acs`, `acceptance`, `criteria`) and names exactly one bound:
 * `min`/`minimum`/`least` → `idealMin`, `max`/`maximum`/`most` → `idealMax`, `few` →
 * `fewLimit`, `many` → `manyLimit`. A v1 minimum and maximum are the range a story should
 * be in, which is the ideal range of the heuristic; `too_few`/`too_many` name its outer
 * limits.
 */
import {
  DEFAULT_STORY_HEURISTICS,
  type AcceptanceCriteriaBounds,
} from '../../../lambdas/core/schemas/evaluation.js';

export type AcBound = keyof AcceptanceCriteriaBounds;

/** Lowest first: each bound must not exceed the next (`AcceptanceCriteriaBoundsSchema`). */
const ORDER: readonly AcBound[] = ['fewLimit', 'idealMin', 'idealMax', 'manyLimit'];
const ORDER_TEXT = ORDER.join(' ≤ ');

const AC_WORDS: ReadonlySet<string> = new Set(['ac', 'acs', 'acceptance', 'criteria', 'criterion']);
const BOUND_WORDS: readonly (readonly [AcBound, ReadonlySet<string>])[] = [
  ['fewLimit', new Set(['few'])],
  ['idealMin', new Set(['min', 'minimum', 'least'])],
  ['idealMax', new Set(['max', 'maximum', 'most'])],
  ['manyLimit', new Set(['many'])],
];

/** Whether a name (as words) is about acceptance criteria. */
export function aboutAcceptanceCriteria(words: readonly string[]): boolean {
  return words.some((word) => AC_WORDS.has(word));
}

/**
 * The bound a number under this name sets, if the name is about acceptance criteria and
 * names exactly one bound.
 *
 * @example
 * acBoundNamed(['max', 'acceptance', 'criteria']); // 'idealMax'
 * acBoundNamed(['max', 'services']); // undefined
 */
export function acBoundNamed(words: readonly string[]): AcBound | undefined {
  if (!aboutAcceptanceCriteria(words)) return undefined;
  const named = BOUND_WORDS.filter(([, names]) => words.some((word) => names.has(word)));
  return named.length === 1 ? named[0]![0] : undefined;
}

export type BoundOutcome =
  | { readonly applied: true; readonly note: string }
  | { readonly applied: false; readonly reason: string };

/**
 * The bounds a v1 file sets, applied in input order over the defaults. A bound another v1
 * entry already set to another value, or one that would cross a bound set by the v1 file, is
 * refused (the caller carries it verbatim); a default in the way moves to make room, and the
 * note says so.
 */
export class AcBoundsFromV1 {
  private readonly bounds: Record<AcBound, number> = {
    ...DEFAULT_STORY_HEURISTICS.acceptanceCriteria,
  };
  private readonly setBy = new Map<AcBound, { readonly at: string; readonly value: number }>();

  /**
   * Sets `bound` to `value`, which came from `at`.
   *
   * @example
   * new AcBoundsFromV1().apply('idealMax', 12, 'scoping_rules.max_acceptance_criteria');
   * // → { applied: true, note: 'idealMax 12; manyLimit raised from 10 to 12 to keep fewLimit ≤ …' }
   */
  apply(bound: AcBound, value: unknown, at: string): BoundOutcome {
    if (typeof value !== 'number' || !Number.isInteger(value) || value < 1)
      return {
        applied: false,
        reason: `${JSON.stringify(value)} is not a whole number ≥ 1, so it cannot be the ${bound} bound`,
      };
    const earlier = this.setBy.get(bound);
    if (earlier)
      return earlier.value === value
        ? { applied: true, note: `${bound} ${value}, as ${earlier.at} already set it` }
        : {
            applied: false,
            reason: `${bound} ${value} conflicts with ${earlier.at} (${bound} ${earlier.value}), applied first`,
          };

    const next = { ...this.bounds, [bound]: value };
    const moved: string[] = [];
    const position = ORDER.indexOf(bound);
    for (const [other, index] of ORDER.map((name, i) => [name, i] as const)) {
      const crosses =
        index < position ? next[other] > value : index > position && next[other] < value;
      if (!crosses) continue;
      const fixed = this.setBy.get(other);
      if (fixed)
        return {
          applied: false,
          reason: `${bound} ${value} would cross ${other} ${fixed.value} from ${fixed.at} (expected ${ORDER_TEXT})`,
        };
      moved.push(
        `${other} ${index < position ? 'lowered' : 'raised'} from ${next[other]} to ${value}`,
      );
      next[other] = value;
    }
    Object.assign(this.bounds, next);
    this.setBy.set(bound, { at, value });
    const note = moved.length > 0 ? `; ${moved.join(', ')} to keep ${ORDER_TEXT}` : '';
    return { applied: true, note: `${bound} ${value}${note}` };
  }

  /** The bounds, when the v1 file set any. */
  result(): AcceptanceCriteriaBounds | undefined {
    return this.setBy.size > 0 ? { ...this.bounds } : undefined;
  }
}

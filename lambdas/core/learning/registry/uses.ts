/**
 * Pattern evolution (cross-loop-learning.md, "Pattern Evolution"): which registry patterns
 * a run's iterations were given and how many of those iterations passed, and a pattern's
 * success rate and trend once those uses are added.
 */
import { InvalidInputError } from '../../errors.js';
import type { IterationRecord } from '../../schemas/iteration.js';
import type { RegistryPattern, RegistryScope } from '../../schemas/learning.js';
import { judgesTheAgent } from './task-attempts.js';

/** One pattern's uses in a run. */
export interface PatternUses {
  readonly scope: RegistryScope;
  readonly patternId: string;
  /** Iterations whose prompt carried it. */
  readonly uses: number;
  /** Of those, the ones that passed. */
  readonly successes: number;
  /** When the latest of them ended. */
  readonly lastUsedAt: string;
}

/**
 * The key of a pattern's uses: a pattern id is unique within its scope only.
 *
 * @example
 * patternUseKey('project:shop', 'err-0a1b2c3d4e5f'); // 'project:shop/err-0a1b2c3d4e5f'
 */
export function patternUseKey(scope: RegistryScope, patternId: string): string {
  return `${scope}/${patternId}`;
}

/**
 * Every pattern the iterations' prompts carried (`learning.injected`, kind `pattern`), with
 * how often and how often it passed. Counted once per iteration however often the prompt
 * named it. A control iteration is given nothing and counts nothing; an iteration that
 * ended for a reason not the agent's (cancelled, interrupted, a runner fault) tested
 * nothing and counts nothing; an injected pattern without a scope cannot be told apart
 * from its namesake in the other registry and is left out.
 *
 * @example
 * countUses(iterations).get(patternUseKey('org', 'success-bugfix'));
 * // { scope: 'org', patternId: 'success-bugfix', uses: 3, successes: 2, lastUsedAt: '…' }
 */
export function countUses(iterations: readonly IterationRecord[]): Map<string, PatternUses> {
  const counted = new Map<string, PatternUses>();
  for (const record of iterations) {
    if (!record.learning || record.learning.control || !judgesTheAgent(record.outcome)) continue;
    const at = record.endedAt ?? record.startedAt ?? record.plannedAt;
    const passed = record.outcome === 'passed';
    const given = new Map<string, { scope: RegistryScope; patternId: string }>();
    for (const injected of record.learning.injected)
      if (injected.kind === 'pattern' && injected.scope)
        given.set(patternUseKey(injected.scope, injected.id), {
          scope: injected.scope,
          patternId: injected.id,
        });
    for (const [key, { scope, patternId }] of given) {
      const seen = counted.get(key);
      counted.set(key, {
        scope,
        patternId,
        uses: (seen?.uses ?? 0) + 1,
        successes: (seen?.successes ?? 0) + (passed ? 1 : 0),
        lastUsedAt: seen && Date.parse(seen.lastUsedAt) > Date.parse(at) ? seen.lastUsedAt : at,
      });
    }
  }
  return counted;
}

/**
 * The pattern with a run's uses added: successRate becomes successes ÷ uses, a trend point
 * records the new rate and sample size, lastUsedAt moves forward. Unchanged (the same
 * object) when the run did not use it. The caller applies a run's uses once (the run end
 * records that it did): applying them again would count them twice.
 *
 * @example
 * applyUses(pattern, countUses(iterations).get(patternUseKey(pattern.scope, pattern.patternId)), now);
 */
export function applyUses(
  pattern: RegistryPattern,
  counted: PatternUses | undefined,
  now: string,
): RegistryPattern {
  if (!counted || counted.uses === 0) return pattern;
  if (counted.scope !== pattern.scope || counted.patternId !== pattern.patternId)
    throw new InvalidInputError('pattern uses', [
      `(root): counted for ${patternUseKey(counted.scope, counted.patternId)}, applied to ` +
        `${patternUseKey(pattern.scope, pattern.patternId)}: look the uses up by patternUseKey`,
    ]);
  const uses = pattern.uses + counted.uses;
  const successes = pattern.successes + counted.successes;
  const successRate = successes / uses;
  const lastUsedAt =
    pattern.lastUsedAt && Date.parse(pattern.lastUsedAt) > Date.parse(counted.lastUsedAt)
      ? pattern.lastUsedAt
      : counted.lastUsedAt;
  return {
    ...pattern,
    uses,
    successes,
    successRate,
    trend: [...pattern.trend, { at: now, successRate, uses }],
    lastUsedAt,
    updatedAt: now,
  };
}

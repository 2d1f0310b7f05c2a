/**
 * The stagnation level of the design's sections 1.2 and 1.5: the count of consecutive
 * iterations without progress (neither a counted commit nor a meaningful change) against
 * `loop.stagnationThreshold`. Warning (1×) switches to the debugger, elevated (2×)
 * consults the supervisor, critical (3×) aborts; the multiples are configurable.
 */
import { atLeast } from '../../shared/compare.js';
import type { LoopControlConfig } from '../../schemas/control-config.js';
import { madeProgress, trailingCount, type History } from '../history.js';
import { describePattern, detectPatterns } from './detect-patterns.js';
import type {
  StagnationLevel,
  StagnationAction,
  StagnationAssessment,
} from '../../schemas/control-decisions.js';

export type LevelConfig = Pick<LoopControlConfig, 'loop' | 'stagnation'>;

const CONSEQUENCE: Record<StagnationLevel, { action: StagnationAction; words: string }> = {
  none: { action: 'none', words: 'below the warning level' },
  warning: { action: 'switch_mode', words: 'warning: switching to the debugger' },
  elevated: { action: 'consult_supervisor', words: 'elevated: consulting the supervisor' },
  critical: { action: 'abort', words: 'critical: aborting' },
};

/**
 * How stagnant the loop is, what to do about it, and why in words.
 *
 * @example
 * stagnationLevel(history, DEFAULT_LOOP_CONTROL_CONFIG);
 * // { level: 'warning', count: 6, threshold: 5, action: 'switch_mode', switchTo: 'debugger', ... }
 */
export function stagnationLevel(history: History, config: LevelConfig): StagnationAssessment {
  const threshold = config.loop.stagnationThreshold;
  const multiples = config.stagnation.levels;
  const count = trailingCount(history, (entry) => !madeProgress(entry));
  const starts = {
    warning: threshold * multiples.warning,
    elevated: threshold * multiples.elevated,
    critical: threshold * multiples.critical,
  };
  const level: StagnationLevel = atLeast(count, starts.critical)
    ? 'critical'
    : atLeast(count, starts.elevated)
      ? 'elevated'
      : atLeast(count, starts.warning)
        ? 'warning'
        : 'none';
  const { action, words } = CONSEQUENCE[level];
  const patterns = detectPatterns(history, config);
  const found =
    patterns.length === 0
      ? 'no stagnation pattern detected'
      : `patterns: ${patterns.map(describePattern).join('; ')}`;
  const summary =
    `${count} iteration${count === 1 ? '' : 's'} in a row without progress, ${words} ` +
    `(warning at ${starts.warning}, elevated at ${starts.elevated}, critical at ${starts.critical}); ${found}`;
  return {
    level,
    count,
    threshold,
    action,
    ...(action === 'switch_mode' ? { switchTo: 'debugger' as const } : {}),
    diagnostics: { patterns, summary },
  };
}

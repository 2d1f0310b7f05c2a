/**
 * The stagnation level of the design's sections 1.2 and 1.5: the count of consecutive
 * iterations without progress (neither a counted commit nor a meaningful change) against
 * `loop.stagnationThreshold`. Warning (1×) switches to the debugger, elevated (2×)
 * consults the supervisor, critical (3×) aborts; the multiples are configurable. The
 * levels are rules tried from the highest down; the patterns (`patterns.ts`) say why.
 */
import { atLeast } from '../../shared/compare.js';
import type { LoopControlConfig } from '../../schemas/control-config.js';
import type {
  StagnationLevel,
  StagnationAction,
  StagnationAssessment,
} from '../../schemas/control-decisions.js';
import type { RunTrends } from '../facts/run-trends.js';
import { firstRuling, type Rule } from '../rules.js';
import { describePattern, detectPatterns } from './patterns.js';

export type LevelConfig = Pick<LoopControlConfig, 'loop' | 'stagnation'>;
type RaisedLevel = Exclude<StagnationLevel, 'none'>;
export type LevelRule = Rule<RunTrends, LevelConfig, RaisedLevel>;

const CONSEQUENCE: Record<StagnationLevel, { action: StagnationAction; words: string }> = {
  none: { action: 'none', words: 'below the warning level' },
  warning: { action: 'switch_mode', words: 'warning: switching to the debugger' },
  elevated: { action: 'consult_supervisor', words: 'elevated: consulting the supervisor' },
  critical: { action: 'abort', words: 'critical: aborting' },
};

/** Where a level starts: its multiple of `loop.stagnationThreshold`. */
const start = (level: RaisedLevel, config: LevelConfig): number =>
  config.loop.stagnationThreshold * config.stagnation.levels[level];

/** The rule of a level: it holds from its start on. */
const reached =
  (level: RaisedLevel): LevelRule =>
  (trends, config) =>
    atLeast(trends.iterationsWithoutProgress, start(level, config)) ? level : undefined;

export const critical: LevelRule = reached('critical');
export const elevated: LevelRule = reached('elevated');
export const warning: LevelRule = reached('warning');

/** Highest first: the first that holds is the level. */
export const LEVEL_RULES: readonly LevelRule[] = [critical, elevated, warning];

/**
 * How stagnant the loop is, what to do about it, and why in words.
 *
 * @example
 * stagnationLevel(runTrends(history, config), config);
 * // { level: 'warning', count: 6, threshold: 5, action: 'switch_mode', switchTo: 'debugger', ... }
 */
export function stagnationLevel(trends: RunTrends, config: LevelConfig): StagnationAssessment {
  const threshold = config.loop.stagnationThreshold;
  const count = trends.iterationsWithoutProgress;
  const level: StagnationLevel = firstRuling(LEVEL_RULES, trends, config) ?? 'none';
  const { action, words } = CONSEQUENCE[level];
  const patterns = detectPatterns(trends, config);
  const found =
    patterns.length === 0
      ? 'no stagnation pattern detected'
      : `patterns: ${patterns.map(describePattern).join('; ')}`;
  const summary =
    `${count} iteration${count === 1 ? '' : 's'} in a row without progress, ${words} ` +
    `(warning at ${start('warning', config)}, elevated at ${start('elevated', config)}, critical at ${start('critical', config)}); ${found}`;
  return {
    level,
    count,
    threshold,
    action,
    ...(action === 'switch_mode' ? { switchTo: 'debugger' as const } : {}),
    diagnostics: { patterns, summary },
  };
}

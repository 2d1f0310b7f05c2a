/**
 * The supervisor's health metrics (the design's section 1.4), read from the history.
 * Test pass rate and warnings are the latest reported values, `null` while nothing has
 * reported them; oscillation and repeating errors are measured over the window
 * (`stagnation.windowIterations`); the two run lengths count back over the whole history.
 */
import { z } from 'zod';
import type { LoopControlConfig } from '../../schemas/control-config.js';
import {
  errorTallies,
  madeProgress,
  modeReturns,
  passRate,
  recent,
  trailingCount,
  type History,
} from '../history.js';

const count = () => z.number().int().nonnegative();

export const HealthMetricsSchema = z.object({
  /** The latest reported pass rate (0–1); `null` before any iteration reported tests. */
  testPassRate: z.number().min(0).max(1).nullable(),
  /** The latest reported warning count; `null` before any iteration reported one. */
  warningCount: count().nullable(),
  /** Consecutive latest iterations without a counted commit. */
  iterationsSinceCommit: count(),
  /** Back-and-forth mode switches in the window (see `modeReturns`). */
  modeSwitches: count(),
  /**
   * Repeats of the window's most frequent error: its occurrences after the first, so 2
   * means the same error three times ("same error 3x", as the stagnation pattern counts).
   */
  repeatingErrorCount: count(),
  /** That error's signature, when any error repeated. */
  repeatingError: z.string().optional(),
  /** Consecutive latest iterations without progress (as the stagnation level counts). */
  stagnationCount: count(),
});
export type HealthMetrics = z.infer<typeof HealthMetricsSchema>;
export type HealthConfig = Pick<LoopControlConfig, 'stagnation'>;

function latest<T>(history: History, read: (entry: History[number]) => T | undefined): T | null {
  for (let index = history.length - 1; index >= 0; index -= 1) {
    const entry = history[index];
    const value = entry === undefined ? undefined : read(entry);
    if (value !== undefined) return value;
  }
  return null;
}

/**
 * The supervisor's view of the run's health.
 *
 * @example
 * healthMetrics(history, DEFAULT_LOOP_CONTROL_CONFIG);
 * // { testPassRate: 0.9, warningCount: 3, iterationsSinceCommit: 2, modeSwitches: 0, ... }
 */
export function healthMetrics(history: History, config: HealthConfig): HealthMetrics {
  const window = recent(history, config.stagnation.windowIterations);
  const mostFrequent = errorTallies(window)[0];
  const repeats = mostFrequent === undefined ? 0 : mostFrequent.occurrences - 1;
  return {
    testPassRate: latest(history, passRate),
    warningCount: latest(history, (entry) => entry.warnings),
    iterationsSinceCommit: trailingCount(history, (entry) => !entry.committed),
    modeSwitches: modeReturns(window),
    repeatingErrorCount: repeats,
    ...(repeats > 0 && mostFrequent ? { repeatingError: mostFrequent.signature } : {}),
    stagnationCount: trailingCount(history, (entry) => !madeProgress(entry)),
  };
}

/**
 * Calibration history retention: the first entry (the baseline) and the most recent
 * `history.maxEntries − 1`. Appending an entry for an iteration the history already
 * ends with replaces it, so a retried step does not record an iteration twice.
 */
import type { EvaluationConfig } from '../schemas/evaluation-config.js';

/**
 * The history with `entry` appended and old entries dropped; the input is not changed.
 *
 * @example
 * appendCalibrationHistory(history, metrics, { history: { maxEntries: 50 } });
 * // [history[0], ...the latest 49]
 */
export function appendCalibrationHistory<T extends { iteration: number }>(
  history: readonly T[],
  entry: T,
  config: Pick<EvaluationConfig, 'history'>,
): T[] {
  const replacesLast = history.at(-1)?.iteration === entry.iteration;
  const next = [...(replacesLast ? history.slice(0, -1) : history), entry];
  const max = Math.max(2, config.history.maxEntries);
  if (next.length <= max) return next;
  return [next[0] as T, ...next.slice(-(max - 1))];
}

/**
 * When to take a checkpoint, which to keep and when to roll back (design section 3.7), as
 * pure decisions; the runner creates the git tag and the store keeps the record.
 *
 * Quality is compared two ways:
 * - **order** ({@link compareQuality}): more stories complete, then a higher pass rate,
 *   then more tests passing, then fewer warnings. "Improved" and "best" use it.
 * - **significantly worse** ({@link isWorseThan}): a lost story, or a fall in pass rate or
 *   passing tests, or a rise in warnings beyond the threshold. Rollback uses it.
 */
import { z } from 'zod';
import { InvalidInputError } from '../../errors.js';
import type { QualityMetrics, RunCheckpoint } from '../../schemas/control.js';

/** Differences smaller than this are floating-point noise, not a change. */
const EPSILON = 1e-9;

export const RegressionThresholdSchema = z.object({
  /**
   * Pass rate (0–1) points a state may fall below another before it is worse. 0.2: a
   * rollback discards work, so it waits for a drop twice the stagnation pattern's 10 points.
   */
  passRateDrop: z.number().min(0).max(1).default(0.2),
  /** Share of the passing tests that may be lost (catches deleted tests the rate hides). */
  testsPassedDrop: z.number().min(0).max(1).default(0.2),
  /** Warnings that may be added: half the supervisor's pause limit of 20. */
  warningsIncrease: z.number().int().nonnegative().default(10),
  /** Complete stories that may be lost: none. */
  storiesLost: z.number().int().nonnegative().default(0),
});
export type RegressionThreshold = z.infer<typeof RegressionThresholdSchema>;
export type RegressionThresholdInput = z.input<typeof RegressionThresholdSchema>;

export const CheckpointPolicyOptionsSchema = z.object({
  enabled: z.boolean().default(true),
  /** Iterations since the last checkpoint that call for one even without improvement. */
  autoCheckpointInterval: z.number().int().positive().default(10),
  maxCheckpoints: z.number().int().min(2).default(20),
  threshold: RegressionThresholdSchema.prefault({}),
});
export type CheckpointPolicyOptions = z.infer<typeof CheckpointPolicyOptionsSchema>;
export type CheckpointPolicyOptionsInput = z.input<typeof CheckpointPolicyOptionsSchema>;

/** Characters and sequences git refuses in a ref name (git check-ref-format). */
const BAD_REF_PART = /[\s~^:?*[\\\x7f]|\.\.|@\{|^\.|\.lock$|\.$|^$|\//;

/**
 * The git tag of a run's checkpoint at an iteration.
 *
 * @throws InvalidInputError when the run id cannot be part of a git ref.
 * @example
 * checkpointTag('run-7f3a', 12) // 'ralph/checkpoint/run-7f3a/12'
 */
export function checkpointTag(runId: string, iteration: number): string {
  if (BAD_REF_PART.test(runId) || [...runId].some((c) => c.charCodeAt(0) < 32))
    throw new InvalidInputError('checkpoint run id', [
      `"${runId}" cannot be part of a git ref name`,
    ]);
  if (!Number.isInteger(iteration) || iteration < 0)
    throw new InvalidInputError('checkpoint iteration', [`${iteration} is not an iteration`]);
  return `ralph/checkpoint/${runId}/${iteration}`;
}

/**
 * The run and iteration a checkpoint tag names, or undefined for any other tag.
 *
 * @example
 * parseCheckpointTag('ralph/checkpoint/run-7f3a/12') // { runId: 'run-7f3a', iteration: 12 }
 */
export function parseCheckpointTag(tag: string): { runId: string; iteration: number } | undefined {
  const m = /^ralph\/checkpoint\/([^/]+)\/(0|[1-9]\d*)$/.exec(tag);
  return m?.[1] && m[2] ? { runId: m[1], iteration: Number(m[2]) } : undefined;
}

/**
 * −1, 0 or 1 as `a` is lower, equal or higher quality than `b`: stories complete, then pass
 * rate, then tests passing, then (fewer) warnings.
 *
 * @example
 * compareQuality({ ...q, storiesComplete: 3 }, { ...q, storiesComplete: 2 }) // 1
 */
export function compareQuality(a: QualityMetrics, b: QualityMetrics): -1 | 0 | 1 {
  const keys: number[] = [
    a.storiesComplete - b.storiesComplete,
    a.passRate - b.passRate,
    a.testsPassed - b.testsPassed,
    b.warnings - a.warnings,
  ];
  const decided = keys.find((difference) => Math.abs(difference) > EPSILON);
  return decided === undefined ? 0 : decided > 0 ? 1 : -1;
}

/**
 * Whether `a` is significantly worse than `b`, and in which ways. Worse when any holds:
 * - `b.storiesComplete − a.storiesComplete > storiesLost`
 * - `b.passRate − a.passRate > passRateDrop`
 * - `b.testsPassed > 0` and `(b.testsPassed − a.testsPassed) ÷ b.testsPassed > testsPassedDrop`
 * - `a.warnings − b.warnings > warningsIncrease`
 *
 * @example
 * isWorseThan({ ...q, passRate: 0.7 }, { ...q, passRate: 0.95 }) // { worse: true, reasons: ['pass rate 0.95 → 0.7 ...'] }
 */
export function isWorseThan(
  a: QualityMetrics,
  b: QualityMetrics,
  threshold: RegressionThresholdInput = {},
): { worse: boolean; reasons: string[] } {
  const t = RegressionThresholdSchema.parse(threshold);
  const reasons: string[] = [];
  if (b.storiesComplete - a.storiesComplete > t.storiesLost)
    reasons.push(`stories complete ${b.storiesComplete} → ${a.storiesComplete}`);
  if (b.passRate - a.passRate - t.passRateDrop > EPSILON)
    reasons.push(
      `pass rate ${round(b.passRate)} → ${round(a.passRate)} (more than ${t.passRateDrop} lower)`,
    );
  if (
    b.testsPassed > 0 &&
    (b.testsPassed - a.testsPassed) / b.testsPassed - t.testsPassedDrop > EPSILON
  )
    reasons.push(
      `tests passing ${b.testsPassed} → ${a.testsPassed} (more than ${Math.round(t.testsPassedDrop * 100)}% lost)`,
    );
  if (a.warnings - b.warnings > t.warningsIncrease)
    reasons.push(`warnings ${b.warnings} → ${a.warnings} (more than ${t.warningsIncrease} added)`);
  return { worse: reasons.length > 0, reasons };
}

export interface CheckpointDecision {
  checkpoint: boolean;
  why: string;
}

/**
 * Whether to take a checkpoint after `iteration`: the first one (a baseline), when quality
 * improved on the last checkpoint (higher in {@link compareQuality} order and not
 * significantly worse in any way), or `autoCheckpointInterval` iterations after the last.
 *
 * @example
 * shouldCheckpoint({ iteration: 20, quality, lastCheckpoint: { iteration: 10, quality } })
 * // { checkpoint: true, why: '10 iterations since the last checkpoint (every 10)' }
 */
export function shouldCheckpoint(input: {
  iteration: number;
  quality: QualityMetrics;
  lastCheckpoint?: Pick<RunCheckpoint, 'iteration' | 'quality'> | undefined;
  options?: CheckpointPolicyOptionsInput;
}): CheckpointDecision {
  const options = CheckpointPolicyOptionsSchema.parse(input.options ?? {});
  const last = input.lastCheckpoint;
  if (!options.enabled) return { checkpoint: false, why: 'checkpoints are disabled' };
  if (!last) return { checkpoint: true, why: 'no checkpoint yet: a baseline to roll back to' };
  if (input.iteration <= last.iteration)
    return { checkpoint: false, why: `iteration ${last.iteration} already has a checkpoint` };
  if (
    compareQuality(input.quality, last.quality) > 0 &&
    !isWorseThan(input.quality, last.quality, options.threshold).worse
  )
    return {
      checkpoint: true,
      why: `quality improved on the checkpoint of iteration ${last.iteration}`,
    };
  const since = input.iteration - last.iteration;
  if (since >= options.autoCheckpointInterval)
    return {
      checkpoint: true,
      why: `${since} iterations since the last checkpoint (every ${options.autoCheckpointInterval})`,
    };
  return {
    checkpoint: false,
    why: `quality not improved and ${since} of ${options.autoCheckpointInterval} iterations since the last checkpoint`,
  };
}

/**
 * The checkpoints to delete so that at most `maxCheckpoints` remain, oldest first. The
 * newest are kept, and the best one (highest quality, the newer of equals) always.
 *
 * @example
 * checkpointsToPrune(checkpoints, { maxCheckpoints: 20 }) // the 21st-newest and older, best spared
 */
export function checkpointsToPrune<C extends Pick<RunCheckpoint, 'iteration' | 'quality'>>(
  checkpoints: readonly C[],
  options: CheckpointPolicyOptionsInput = {},
): C[] {
  const { maxCheckpoints } = CheckpointPolicyOptionsSchema.parse(options);
  if (checkpoints.length <= maxCheckpoints) return [];
  const newestFirst = [...checkpoints].sort((a, b) => b.iteration - a.iteration);
  const best = newestFirst.reduce((top, candidate) =>
    compareQuality(candidate.quality, top.quality) > 0 ? candidate : top,
  );
  const newest = newestFirst.slice(0, maxCheckpoints);
  const keep = new Set(
    newest.includes(best) ? newest : [best, ...newestFirst.slice(0, maxCheckpoints - 1)],
  );
  return newestFirst.filter((checkpoint) => !keep.has(checkpoint)).reverse();
}

/**
 * The checkpoint to restore, or null: the newest checkpoint before `current.iteration` that
 * the current quality is significantly worse than (design section 3.7 `should_rollback`).
 *
 * @example
 * shouldRollback({ iteration: 14, quality: broken }, checkpoints)
 * // { checkpoint: <iteration 10>, reasons: ['pass rate 0.95 → 0.4 ...'] }
 */
export function shouldRollback<C extends Pick<RunCheckpoint, 'iteration' | 'quality'>>(
  current: { iteration: number; quality: QualityMetrics },
  checkpoints: readonly C[],
  threshold: RegressionThresholdInput = {},
): { checkpoint: C; reasons: string[] } | null {
  const newestFirst = [...checkpoints]
    .filter((checkpoint) => checkpoint.iteration < current.iteration)
    .sort((a, b) => b.iteration - a.iteration);
  for (const checkpoint of newestFirst) {
    const verdict = isWorseThan(current.quality, checkpoint.quality, threshold);
    if (verdict.worse) return { checkpoint, reasons: verdict.reasons };
  }
  return null;
}

function round(value: number): number {
  return Math.round(value * 1000) / 1000;
}

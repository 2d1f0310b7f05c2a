/**
 * Loop control's settings: the design document's section 5.2 shape in this project's
 * camelCase, plus the numbers its sections 1.4, 1.5 and 3.6 hard-code. Every field has a
 * default, so `LoopControlConfigSchema.parse({})` is a working configuration. The run's
 * `maxIterations` stays in `RunConfigSchema.limits`; Rust-specific options (`clippy`) and
 * the file-based `history` section have no counterpart here.
 */
import { z } from 'zod';

const count = () => z.number().int().positive();
const share = () => z.number().min(0).max(1);
const weight = () => z.number().min(0).max(1);

export const LoopSettingsSchema = z.strictObject({
  /** Consecutive iterations without progress that make one stagnation "unit" (levels are multiples). */
  stagnationThreshold: count().default(5),
  taskTimeoutMinutes: count().default(30),
  /** Failed attempts in a row after which a task is blocked and skipped (design §3.4). */
  maxTaskAttempts: count().default(3),
  /** Blocks after which a task is not picked again; every open task past it aborts the run. */
  maxTimesBlocked: count().default(2),
  /**
   * A task in progress for more iterations than this is skipped (the document's
   * MAX_TASK_ITERATIONS, left without a value there). 8 lets a stuck task reach the
   * warning level (5, switch to the debugger) and still get 3 debugging iterations, but
   * moves on before the elevated level (10) would consult the supervisor over one task.
   */
  maxTaskIterations: count().default(8),
  enablePredictiveStagnation: z.boolean().default(true),
  enableDynamicPrompts: z.boolean().default(true),
});

export const QualitySettingsSchema = z.strictObject({
  tests: z
    .strictObject({
      minPassRate: share().default(0.95),
      requireNewTestsForNewCode: z.boolean().default(true),
    })
    .prefault({}),
  /**
   * The document's `clippy` section, for any linter. Warnings fail no gate (the supervisor
   * pauses above its own `pauseAboveWarnings`); any warning is a review finding, and one
   * past this limit says so.
   */
  warnings: z.strictObject({ max: z.number().int().nonnegative().default(20) }).prefault({}),
  security: z
    .strictObject({
      blockOnCritical: z.boolean().default(true),
      blockOnHigh: z.boolean().default(true),
    })
    .prefault({}),
  /**
   * Review iterations a task gets when its gates pass with review findings (design §3.4's
   * InReview): one chance to address them, after which it completes with the findings
   * kept, so the loop never spins on advisory issues. 0 completes at once.
   */
  maxReviewIterations: z.number().int().nonnegative().default(1),
});
export type QualitySettings = z.infer<typeof QualitySettingsSchema>;
export type QualitySettingsInput = z.input<typeof QualitySettingsSchema>;

export const CheckpointSettingsSchema = z.strictObject({
  enabled: z.boolean().default(true),
  autoCheckpointInterval: count().default(10),
  maxCheckpoints: count().default(20),
  /**
   * Roll back when the test pass rate (0–1) falls more than this below a checkpoint's (the
   * document's unnamed THRESHOLD). 0.2 is twice the regression pattern's 10 points: a
   * rollback discards work, so it waits for a drop the diagnostic alone would not justify.
   */
  rollbackQualityDrop: share().default(0.2),
});

export const SupervisorSettingsSchema = z.strictObject({
  /** A known test pass rate below this aborts (an unknown one never does). */
  abortBelowPassRate: share().default(0.5),
  pauseAboveWarnings: z.number().int().nonnegative().default(20),
  /** Back-and-forth mode switches in the recent window above this abort. */
  abortAboveModeSwitches: z.number().int().nonnegative().default(4),
  /** Repeats of one error (occurrences after its first) in the recent window that reset. */
  resetAtRepeatingError: count().default(2),
  debugAfterIterationsWithoutCommit: z.number().int().nonnegative().default(15),
});

export const StagnationSettingsSchema = z.strictObject({
  /**
   * How many of the latest iterations the patterns and the supervisor look at. 10 is
   * twice `stagnationThreshold`: the span after which the supervisor is consulted.
   */
  windowIterations: count().default(10),
  /** "Same error 3x": occurrences of one error signature in the window. */
  repeatingErrorCount: count().default(3),
  /**
   * Back-and-forth mode switches in the window that make the oscillation pattern. One
   * return (implementer → debugger → implementer) is the recovery the loop itself orders;
   * a second is swinging.
   */
  modeOscillationSwitches: count().default(2),
  /**
   * Percentage points the latest pass rate must be below the window's best. 10 is twice
   * what the quality gate tolerates (1 − minPassRate), so one flaky test in a suite of 20
   * (5 points) is not a regression.
   */
  testRegressionDropPercent: z.number().positive().max(100).default(10),
  /**
   * Warnings the latest count must be above the window's lowest (and be the highest since
   * that low point). 5 is a quarter of the supervisor's pause limit: the trend shows well before it.
   */
  warningsRise: count().default(5),
  /** Consecutive iterations without a meaningful change that make the pattern: as "same error 3x". */
  noMeaningfulChangeIterations: count().default(3),
  /** Multiples of `loop.stagnationThreshold` at which each level starts. */
  levels: z
    .strictObject({
      warning: z.number().positive().default(1),
      elevated: z.number().positive().default(2),
      critical: z.number().positive().default(3),
    })
    .prefault({})
    .superRefine((levels, ctx) => {
      if (levels.warning > levels.elevated || levels.elevated > levels.critical)
        ctx.addIssue({
          code: 'custom',
          message: 'levels must rise: warning ≤ elevated ≤ critical',
        });
    }),
});

export const PredictorSettingsSchema = z.strictObject({
  /** How many of the latest iterations error repetition is measured over (one stagnation unit). */
  windowIterations: count().default(5),
  /** A file touched in more iterations than this since the last commit is a signal. */
  repeatedFileTouches: count().default(3),
  /** The test count not rising for this many iterations is a signal. */
  stagnantTestIterations: count().default(5),
  /** A share of window iterations repeating an earlier error above this is a signal. */
  errorRepetitionRate: share().default(0.5),
  /** A mode change within this many latest iterations (of one task) counts as "recent". */
  recentModeSwitchIterations: z.number().int().min(2).default(3),
  narrowFocusAbove: share().default(0.5),
  unstickAbove: share().default(0.7),
  weights: z
    .strictObject({
      repeatedFileTouches: weight().default(0.3),
      stagnantTestCount: weight().default(0.2),
      errorRepetition: weight().default(0.4),
      recentModeSwitch: weight().default(0.2),
    })
    .prefault({}),
});

export const LoopControlConfigSchema = z.strictObject({
  loop: LoopSettingsSchema.prefault({}),
  quality: QualitySettingsSchema.prefault({}),
  checkpoints: CheckpointSettingsSchema.prefault({}),
  supervisor: SupervisorSettingsSchema.prefault({}),
  stagnation: StagnationSettingsSchema.prefault({}),
  predictor: PredictorSettingsSchema.superRefine((predictor, ctx) => {
    if (predictor.narrowFocusAbove > predictor.unstickAbove)
      ctx.addIssue({
        code: 'custom',
        path: ['narrowFocusAbove'],
        message: 'narrowFocusAbove must not exceed unstickAbove',
      });
  }).prefault({}),
  archive: z
    .strictObject({
      everyIterations: count().default(10),
      /**
       * Output size check (design §3, periodic work): progress.txt larger than this is
       * archived at once, between the periodic archives. 64 KiB is some 16,000 tokens,
       * about ten times what the prompt shows of it: past it, the agent reading the file
       * as Ralph's prompt asks spends its context on history.
       */
      maxProgressBytes: count().default(64 * 1024),
    })
    .prefault({}),
});
export type LoopControlConfig = z.infer<typeof LoopControlConfigSchema>;
export type LoopControlConfigInput = z.input<typeof LoopControlConfigSchema>;

/**
 * Every default: the design document's values and this project's documented choices.
 *
 * @example
 * DEFAULT_LOOP_CONTROL_CONFIG.supervisor.abortBelowPassRate; // 0.5
 */
export const DEFAULT_LOOP_CONTROL_CONFIG: LoopControlConfig = LoopControlConfigSchema.parse({});

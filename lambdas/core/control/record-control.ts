/**
 * Loop control's bookkeeping after an iteration is recorded: its progress signals, its
 * facts as the run's history entry, and the decisions read from the history's trends
 * (stagnation level, supervisor verdict, stagnation risk). Pure: the caller stores the new
 * state on the run and the iteration's control on its record.
 */
import type { IterationResult } from '../schemas/iteration-result.js';
import type { LoopControlConfig } from '../schemas/control-config.js';
import { type AgentMode, type IterationSummary } from '../schemas/control-history.js';
import { iterationFacts } from './facts/iteration-facts.js';
import { runTrends } from './facts/run-trends.js';
import {
  checkpointsToPrune,
  checkpointTag,
  shouldCheckpoint,
  shouldRollback,
} from './checkpoints/policy.js';
import { type QualityMetrics } from '../schemas/control.js';
import { stagnationRisk } from './predictor/risk.js';
import { computeProgressSignals } from './signals/progress-signals.js';
import { stagnationLevel } from './stagnation/level.js';
import {
  CONTROL_HISTORY_LIMIT,
  IterationControlSchema,
  type IterationControl,
  type RunCheckpoint,
  type RunControlState,
} from '../schemas/control.js';
import { supervisorVerdict } from './supervisor/verdict.js';

export interface RecordControlInput {
  runId: string;
  result: IterationResult;
  /** The stories complete once this iteration is counted. */
  tasksComplete: readonly string[];
  /** The mode (role) the iteration ran in. */
  mode: AgentMode;
  /** When the iteration started and ended (ISO). */
  startedAt: string;
  endedAt: string;
}

/**
 * @example
 * const { state, control } = recordControl(run.control ?? emptyState, { result, mode, startedAt, endedAt }, run.config.control);
 * control.verdict; // { verdict: 'PROCEED', rule: 'healthy', reason: '...' }
 */
export function recordControl(
  state: RunControlState,
  input: RecordControlInput,
  config: LoopControlConfig,
): { state: RunControlState; control: IterationControl } {
  const { result, mode } = input;
  const previousTaskId = state.history.at(-1)?.taskId;
  const currentTask =
    state.currentTask?.taskId === result.taskId
      ? state.currentTask
      : { taskId: result.taskId, startedIteration: result.iteration, startedAt: input.startedAt };
  const observation = result.observation;
  const signals = computeProgressSignals({
    iteration: result.iteration,
    taskId: result.taskId,
    ...(previousTaskId === undefined ? {} : { previousTaskId }),
    outcome: result.outcome,
    ...(result.commit === undefined ? {} : { commit: result.commit }),
    ...(observation
      ? { linesAdded: observation.linesAdded, linesRemoved: observation.linesRemoved }
      : {}),
    filesChanged: result.filesChanged,
    gates: result.gates,
    baselineGateCounts: state.baselineGateCounts,
    taskStartedIteration: currentTask.startedIteration,
    taskStartedAt: currentTask.startedAt,
    now: input.endedAt,
    taskSwitchesBefore: state.taskSwitchCount,
    uncommittedEdits: state.uncommittedEdits,
  });

  const entry = iterationFacts({ result, mode, signals, endedAt: input.endedAt });
  const history = [...state.history, entry].slice(-CONTROL_HISTORY_LIMIT);
  // The decisions read the trends, computed once for all three.
  const trends = runTrends(history, config);
  const stagnation = stagnationLevel(trends, config);
  const verdict = supervisorVerdict(trends, config);
  const risk = stagnationRisk(trends, config);
  const points = checkpointsAfter(state, input, entry, config);
  const reset =
    points.reset ??
    (verdict.verdict === 'RESET' && points.checkpoints.length > 0
      ? {
          after: result.iteration,
          checkpoint: points.checkpoints.at(-1) as RunCheckpoint,
          reason: `supervisor: ${verdict.reason}`,
        }
      : undefined);

  // The record keeps the signals without the baselines, which live on the run.
  const kept = IterationControlSchema.shape.signals.parse(signals);
  return {
    state: {
      // A reset starts over from the checkpoint: what led here no longer describes the code.
      history: reset ? [] : history,
      baselineGateCounts: reset ? {} : signals.nextBaselineGateCounts,
      uncommittedEdits: reset ? {} : signals.nextUncommittedEdits,
      taskSwitchCount: signals.taskSwitchCount,
      currentTask,
      verdict: { ...verdict, iteration: result.iteration },
      stagnation: { ...stagnation, iteration: result.iteration },
      checkpoints: points.checkpoints,
      ...(points.changes ? { checkpointChanges: points.changes } : {}),
      ...(reset ? { reset } : {}),
    },
    control: { mode, signals: kept, verdict, stagnation, risk },
  };
}

/** The quality a checkpoint keeps: the tests and warnings the gates reported, the stories. */
function qualityOf(entry: IterationSummary, storiesComplete: number): QualityMetrics {
  const total = entry.testsTotal ?? (entry.testsPassed ?? 0) + (entry.testsFailed ?? 0);
  const passed = Math.min(entry.testsPassed ?? 0, total);
  return {
    testsPassed: passed,
    testsTotal: total,
    // A run whose gates report no tests is not failing them.
    passRate: total === 0 ? 1 : passed / total,
    warnings: entry.warnings ?? 0,
    storiesComplete,
  };
}

/**
 * After a counted commit: a rollback when the quality fell past the threshold below a
 * checkpoint (design §3.7), else a new checkpoint when the quality improved or every
 * `autoCheckpointInterval` iterations, at most `maxCheckpoints` kept.
 */
function checkpointsAfter(
  state: RunControlState,
  input: RecordControlInput,
  entry: IterationSummary,
  config: LoopControlConfig,
): {
  checkpoints: RunCheckpoint[];
  changes?: NonNullable<RunControlState['checkpointChanges']>;
  reset?: NonNullable<RunControlState['reset']>;
} {
  const { result } = input;
  const checkpoints = state.checkpoints;
  if (!config.checkpoints.enabled || result.outcome !== 'passed' || result.commit === undefined)
    return { checkpoints };
  const options = {
    enabled: config.checkpoints.enabled,
    autoCheckpointInterval: config.checkpoints.autoCheckpointInterval,
    maxCheckpoints: Math.max(2, config.checkpoints.maxCheckpoints),
    threshold: { passRateDrop: config.checkpoints.rollbackQualityDrop },
  };
  const quality = qualityOf(entry, input.tasksComplete.length);
  const rollback = shouldRollback(
    { iteration: result.iteration, quality },
    checkpoints,
    options.threshold,
  );
  if (rollback)
    return {
      checkpoints,
      reset: {
        after: result.iteration,
        checkpoint: rollback.checkpoint,
        reason: `quality fell below checkpoint ${rollback.checkpoint.iteration}: ${rollback.reasons.join('; ')}`,
      },
    };
  const decision = shouldCheckpoint({
    iteration: result.iteration,
    quality,
    lastCheckpoint: checkpoints.at(-1),
    options,
  });
  if (!decision.checkpoint) return { checkpoints };
  const added: RunCheckpoint = {
    tag: checkpointTag(input.runId, result.iteration),
    iteration: result.iteration,
    commit: result.commit,
    createdAt: input.endedAt,
    quality,
    why: decision.why,
  };
  const all = [...checkpoints, added];
  const pruned = new Set(checkpointsToPrune(all, options).map((checkpoint) => checkpoint.tag));
  return {
    checkpoints: all.filter((checkpoint) => !pruned.has(checkpoint.tag)),
    changes: {
      after: result.iteration,
      create: [{ tag: added.tag, commit: added.commit }],
      drop: [...pruned],
    },
  };
}

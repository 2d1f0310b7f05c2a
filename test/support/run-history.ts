/**
 * Finished runs as the registry's extraction reads them: recorded iterations with gates,
 * agent reports and what the prompt carried, and the run's tasks.
 */
import {
  IterationControlSchema,
  type IterationControl,
} from '../../lambdas/core/schemas/control.js';
import type { IterationRecord } from '../../lambdas/core/schemas/iteration.js';
import type { IterationOutcome } from '../../lambdas/core/schemas/outcome.js';
import type { TaskStatus } from '../../lambdas/core/schemas/task.js';
import type { RunHistory } from '../../lambdas/core/learning/registry/candidate.js';
import { makeGate, makeIteration } from './records.js';

/** Real `tsc --noEmit --strict` lines: the same mistake in two files. */
export const TSC_POSSIBLY_NULL_PROFILE =
  "src/account/profile.ts(5,10): error TS18047: 'user' is possibly 'null'.";
export const TSC_POSSIBLY_NULL_RECEIPT =
  "src/orders/receipt.ts(6,10): error TS18047: 'order' is possibly 'null'.";

export interface RecordedOptions {
  taskId?: string;
  outcome?: IterationOutcome;
  /** The failed blocking gate's name and output. */
  failedGate?: { name: string; outputTail: string };
  summary?: string;
  learnings?: string[];
  filesChanged?: string[];
  overrides?: Partial<IterationRecord>;
}

/**
 * A recorded iteration: passed, unless a failed gate (then gates_failed) or an outcome is given.
 *
 * @example
 * recorded(2, { failedGate: { name: 'typecheck', outputTail: TSC_PLAIN } });
 */
export function recorded(iteration: number, options: RecordedOptions = {}): IterationRecord {
  const outcome = options.outcome ?? (options.failedGate ? 'gates_failed' : 'passed');
  const at = `2025-03-01T10:${String(iteration).padStart(2, '0')}:00.000Z`;
  return makeIteration({
    runId: 'run-1',
    iteration,
    status: 'recorded',
    taskId: options.taskId ?? 'US-001',
    taskTitle: 'Story',
    startedAt: at,
    endedAt: at,
    outcome,
    gates: options.failedGate
      ? [makeGate({ name: options.failedGate.name, outputTail: options.failedGate.outputTail })]
      : [makeGate({ passed: true, exitCode: 0 })],
    filesChanged: options.filesChanged ?? [],
    ...(options.summary || options.learnings
      ? { agentReport: { summary: options.summary, learnings: options.learnings ?? [] } }
      : {}),
    ...options.overrides,
  });
}

export function task(
  taskId: string,
  title: string,
  status: TaskStatus = 'complete',
): RunHistory['tasks'][number] {
  return { taskId, story: { title, description: '' }, status };
}

export function history(
  iterations: IterationRecord[],
  tasks: RunHistory['tasks'],
  run: { runId?: string; endedAt?: string } = {},
): RunHistory {
  const runId = run.runId ?? 'run-1';
  return {
    runId,
    projectId: 'shop',
    endedAt: run.endedAt ?? '2025-03-01T11:00:00.000Z',
    tasks,
    iterations: iterations.map((record) => ({ ...record, runId })),
  };
}

/**
 * Loop control's record of an iteration after which the supervisor said RESET, in the
 * words the supervisor uses for a repeating error.
 */
export function resetControl(iteration: number, taskId = 'US-001'): IterationControl {
  return IterationControlSchema.parse({
    mode: 'implementer',
    signals: {
      iteration,
      taskId,
      commitsAdded: 0,
      sourceFilesModified: 1,
      testFilesModified: 0,
      docFilesModified: 0,
      configFilesModified: 0,
      taskCompleted: false,
      currentTaskIterations: iteration,
      currentTaskMs: 60_000,
      taskSwitched: false,
      taskSwitchCount: 0,
      uniqueFilesTouched: 1,
      repeatedEditFiles: [],
      explorationBreadth: 0,
      meaningfulChange: false,
    },
    verdict: {
      verdict: 'RESET',
      rule: 'repeating_error',
      reason: 'the same error repeated 2 times (limit 2): "<file>:<line> error TS18047"',
    },
    stagnation: {
      level: 'elevated',
      count: 2,
      threshold: 3,
      action: 'consult_supervisor',
      diagnostics: { patterns: [], summary: 'the same error twice' },
    },
  });
}

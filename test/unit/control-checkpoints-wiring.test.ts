import { describe, expect, it } from 'vitest';
import type { z } from 'zod';
import {
  DEFAULT_LOOP_CONTROL_CONFIG,
  LoopControlConfigSchema,
  type LoopControlConfig,
} from '../../lambdas/core/schemas/control-config.js';
import { recordControl } from '../../lambdas/core/control/record-control.js';
import { RunControlStateSchema, type RunControlState } from '../../lambdas/core/schemas/control.js';
import { GateResultSchema } from '../../lambdas/core/schemas/gate-result.js';
import {
  IterationResultSchema,
  type IterationResult,
} from '../../lambdas/core/schemas/iteration-result.js';
import { decideNext } from '../../lambdas/core/loop/decide-next.js';
import { makeRun, makeTasks } from '../support/records.js';

const AT = '2025-01-15T10:05:00.000Z';

/** A test gate (advisory: a commit may count with failures) printing a vitest summary. */
const tests = (passing: number, failing: number) =>
  GateResultSchema.parse({
    name: 'test',
    blocking: false,
    passed: failing === 0,
    exitCode: failing === 0 ? 0 : 1,
    timedOut: false,
    durationMs: 10,
    outputTail: `      Tests  ${failing > 0 ? `${failing} failed | ` : ''}${passing} passed (${passing + failing})\n`,
  });

const result = (
  iteration: number,
  overrides: Partial<z.input<typeof IterationResultSchema>> = {},
): IterationResult =>
  IterationResultSchema.parse({
    runId: 'run-1',
    iteration,
    taskId: `US-00${iteration}`,
    outcome: 'passed',
    commit: `c0mm1t${iteration}`,
    durations: { agentMs: 1, gatesMs: 1, runnerMs: 1 },
    startedAt: AT,
    endedAt: AT,
    ...overrides,
  });

function record(
  state: RunControlState,
  each: IterationResult,
  tasksComplete: string[],
  config: LoopControlConfig = DEFAULT_LOOP_CONTROL_CONFIG,
) {
  return recordControl(
    state,
    {
      runId: 'run-1',
      result: each,
      tasksComplete,
      mode: 'implementer',
      startedAt: AT,
      endedAt: AT,
    },
    config,
  );
}

const empty = () => RunControlStateSchema.parse({});

describe('Checkpoints in recordControl', () => {
  it('takes a baseline checkpoint on the first counted commit and asks for its tag', () => {
    // Act
    const { state } = record(empty(), result(1, { gates: [tests(10, 0)] }), ['US-001']);

    // Assess
    expect(state.checkpoints).toHaveLength(1);
    expect(state.checkpoints[0]).toMatchObject({
      tag: 'ralph/checkpoint/run-1/1',
      iteration: 1,
      commit: 'c0mm1t1',
      quality: { testsPassed: 10, testsTotal: 10, passRate: 1, storiesComplete: 1 },
    });
    expect(state.checkpointChanges).toEqual({
      after: 1,
      create: [{ tag: 'ralph/checkpoint/run-1/1', commit: 'c0mm1t1' }],
      drop: [],
    });
    expect(state.reset).toBeUndefined();
  });

  it('takes none for an iteration that did not count', () => {
    const { state } = record(
      empty(),
      result(1, { outcome: 'gates_failed', commit: undefined }),
      [],
    );
    expect(state.checkpoints).toEqual([]);
    expect(state.checkpointChanges).toBeUndefined();
  });

  it.each([
    [8, 2, false, 'a drop of exactly 0.2 pass-rate points'],
    [7, 3, true, 'a drop of 0.3'],
  ])(
    'after 10/10, %i passing and %i failing: reset requested %s (%s)',
    (passing, failing, requested) => {
      // Prepare
      const first = record(empty(), result(1, { gates: [tests(10, 0)] }), ['US-001']);

      // Act
      const { state } = record(first.state, result(2, { gates: [tests(passing, failing)] }), [
        'US-001',
        'US-002',
      ]);

      // Assess
      expect(state.reset !== undefined).toBe(requested);
      if (requested) {
        expect(state.reset).toMatchObject({ after: 2, checkpoint: { iteration: 1 } });
        expect(state.reset?.reason).toContain('quality fell below checkpoint 1');
        // A reset starts over: the history that led here no longer describes the code.
        expect(state.history).toEqual([]);
      } else expect(state.history).toHaveLength(2);
    },
  );

  it('asks to reset to the latest checkpoint on a RESET verdict', () => {
    // Prepare: a checkpoint, then the same error on the next story (three times: two repeats).
    const failing = (iteration: number) =>
      result(iteration, {
        taskId: 'US-002',
        outcome: 'gates_failed',
        commit: undefined,
        failureDetail: 'src/a.ts(3,1): error TS2322: Type string is not number',
      });
    let state = record(empty(), result(1), ['US-001']).state;
    state = record(state, failing(2), ['US-001']).state;
    const once = record(state, failing(3), ['US-001']);
    state = once.state;

    // Act
    const next = record(state, failing(4), ['US-001']);

    // Assess
    expect(once.control.verdict.verdict).toBe('PROCEED');
    expect(once.state.reset).toBeUndefined();
    expect(next.control.verdict.verdict).toBe('RESET');
    expect(next.state.reset).toMatchObject({ after: 4, checkpoint: { iteration: 1 } });
    expect(next.state.reset?.reason).toMatch(/^supervisor: /);
  });

  it('keeps at most maxCheckpoints, dropping the oldest that is not the best', () => {
    // Prepare: every story completed is an improvement, so each iteration checkpoints.
    const config = LoopControlConfigSchema.parse({ checkpoints: { maxCheckpoints: 2 } });
    let state = empty();
    const done: string[] = [];
    let last: ReturnType<typeof record> | undefined;
    for (const iteration of [1, 2, 3]) {
      done.push(`US-00${iteration}`);
      last = record(state, result(iteration), [...done], config);
      state = last.state;
    }

    // Assess
    expect(state.checkpoints.map((checkpoint) => checkpoint.iteration)).toEqual([2, 3]);
    expect(last?.state.checkpointChanges?.drop).toEqual(['ralph/checkpoint/run-1/1']);
  });
});

describe('decideNext with a reset pending', () => {
  it('does not complete a run whose last story is about to be reopened', () => {
    // Prepare
    const tasks = makeTasks('run-1', 2).map((task) => ({ ...task, status: 'complete' as const }));
    const pending = RunControlStateSchema.parse({
      reset: {
        after: 4,
        reason: 'quality fell',
        checkpoint: {
          tag: 't',
          iteration: 2,
          commit: 'c',
          createdAt: AT,
          quality: { testsPassed: 1, testsTotal: 1, passRate: 1, warnings: 0, storiesComplete: 1 },
          why: 'baseline',
        },
      },
    });

    // Act
    const now = decideNext(makeRun({ lastRecordedIteration: 4, control: pending }), tasks);
    const later = decideNext(makeRun({ lastRecordedIteration: 5, control: pending }), tasks);

    // Assess
    expect(now.action).toBe('continue');
    expect(later.action).toBe('complete');
  });
});

describe('The error signature of a gate failure', () => {
  const failure = (detail: string) =>
    record(
      empty(),
      result(1, { outcome: 'gates_failed', commit: undefined, failureDetail: detail }),
      [],
    ).state.history[0]?.errorSignature;

  it("is the gate's error, not the runner's header, so different errors differ", () => {
    // Act
    const a = failure("gate typecheck failed (exit 2):\nsrc/a.ts(3,1): error TS2322: Type 'x'");
    const b = failure("gate typecheck failed (exit 2):\nsrc/b.ts(9,4): error TS2339: Property 'y'");

    // Assess
    expect(a).toContain('TS2322');
    expect(b).toContain('TS2339');
    expect(a).not.toBe(b);
  });

  it('falls back to the header when the gate printed nothing', () => {
    expect(failure('gate test failed (exit 1): (no output)')).toContain('gate test failed');
  });
});

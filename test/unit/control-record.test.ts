import { describe, expect, it } from 'vitest';
import { runTrends } from '../../lambdas/core/control/facts/run-trends.js';
import type { z } from 'zod';
import {
  DEFAULT_LOOP_CONTROL_CONFIG,
  LoopControlConfigSchema,
  type LoopControlConfig,
} from '../../lambdas/core/schemas/control-config.js';
import { errorSignature } from '../../lambdas/core/tool-output/error-signature.js';
import {
  IterationSummarySchema,
  type AgentMode,
} from '../../lambdas/core/schemas/control-history.js';
import { stagnationRisk } from '../../lambdas/core/control/predictor/risk.js';
import { recordControl } from '../../lambdas/core/control/record-control.js';
import { stagnationLevel } from '../../lambdas/core/control/stagnation/level.js';
import {
  CONTROL_HISTORY_LIMIT,
  IterationControlSchema,
  RunControlStateSchema,
  type RunControlState,
} from '../../lambdas/core/schemas/control.js';
import { supervisorVerdict } from '../../lambdas/core/control/supervisor/verdict.js';
import { GateResultSchema, type GateResult } from '../../lambdas/core/schemas/gate-result.js';
import {
  IterationResultSchema,
  type IterationResult,
} from '../../lambdas/core/schemas/iteration-result.js';

const STARTED_AT = '2025-01-15T10:00:00.000Z';
const ENDED_AT = '2025-01-15T10:05:00.000Z';
const config = DEFAULT_LOOP_CONTROL_CONFIG;
const empty = (): RunControlState => RunControlStateSchema.parse({});

const result = (overrides: Partial<z.input<typeof IterationResultSchema>> = {}): IterationResult =>
  IterationResultSchema.parse({
    runId: 'run-1',
    iteration: 1,
    taskId: 'US-001',
    outcome: 'gates_failed',
    durations: { agentMs: 1, gatesMs: 1, runnerMs: 1 },
    startedAt: STARTED_AT,
    endedAt: ENDED_AT,
    ...overrides,
  });
const passed = (overrides: Partial<z.input<typeof IterationResultSchema>> = {}) =>
  result({ outcome: 'passed', commit: 'abc1234def', ...overrides });

const gate = (name: string, outputTail: string, ok = true): GateResult =>
  GateResultSchema.parse({
    name,
    blocking: true,
    passed: ok,
    exitCode: ok ? 0 : 1,
    timedOut: false,
    durationMs: 10,
    outputTail,
  });
const vitest = (passing: number, failing: number) =>
  gate(
    'test',
    `      Tests  ${failing > 0 ? `${failing} failed | ` : ''}${passing} passed (${passing + failing})\n`,
    failing === 0,
  );
const eslint = (warnings: number) =>
  gate('lint', `✖ ${warnings} problems (0 errors, ${warnings} warnings)\n`);

/** Records `results` in order, as record-iteration does one per iteration. */
function recordAll(
  results: readonly IterationResult[],
  options: { state?: RunControlState; mode?: AgentMode; settings?: LoopControlConfig } = {},
) {
  let state = options.state ?? empty();
  let last: ReturnType<typeof recordControl> | undefined;
  for (const each of results) {
    last = recordControl(
      state,
      {
        runId: 'run-1',
        result: each,
        tasksComplete: [],
        mode: options.mode ?? 'implementer',
        startedAt: each.startedAt,
        endedAt: each.endedAt,
      },
      options.settings ?? config,
    );
    state = last.state;
  }
  if (!last) throw new Error('recordAll needs at least one result');
  return last;
}
const numbered = (count: number, make: (iteration: number) => IterationResult) =>
  Array.from({ length: count }, (_, index) => make(index + 1));

describe('Function: recordControl', () => {
  describe('the history entry', () => {
    it('records a passed iteration as committed and meaningful, without an error', () => {
      // Act
      const { state, control } = recordAll([passed({ iteration: 3, cause: 'ignored' })], {
        mode: 'tester',
      });

      // Assess
      expect(state.history).toEqual([
        IterationSummarySchema.parse({
          iteration: 3,
          taskId: 'US-001',
          mode: 'tester',
          outcome: 'passed',
          committed: true,
          meaningfulChange: true,
          filesTouchedUncommitted: [],
          endedAt: ENDED_AT,
        }),
      ]);
      expect(control.mode).toBe('tester');
      expect(IterationControlSchema.parse(control)).toEqual(control);
      expect(control.signals).not.toHaveProperty('gateCounts');
      expect(control.signals).not.toHaveProperty('nextBaselineGateCounts');
    });

    it('signs a failure by its detail, else its cause, else not at all', () => {
      // Prepare
      const detail = "src/a.ts(12,5): error TS2322: Type 'string' is not assignable.";

      // Act
      const byDetail = recordAll([result({ failureDetail: detail, cause: 'gate failed' })]);
      const byCause = recordAll([result({ cause: 'the agent exited with code 1' })]);
      const silent = recordAll([result({ outcome: 'agent_failed' })]);

      // Assess
      expect(byDetail.state.history[0]?.errorSignature).toBe(errorSignature(detail));
      expect(byCause.state.history[0]?.errorSignature).toBe(
        errorSignature('the agent exited with code 1'),
      );
      expect(silent.state.history[0]).not.toHaveProperty('errorSignature');
      expect(byDetail.state.history[0]?.committed).toBe(false);
    });

    it.each([
      ['no changed file', [], undefined, false],
      ['a changed source file of unknown size', ['src/a.ts'], undefined, true],
      ['a changed source file of 0 lines', ['src/a.ts'], 0, false],
      ['a changed source file of 1 line', ['src/a.ts'], 1, true],
      ['a changed doc only', ['README.md'], 10, false],
    ] as const)('a failed iteration with %s: meaningful %s', (_, files, lines, meaningful) => {
      // Act
      const { state } = recordAll([
        result({
          filesChanged: [...files],
          ...(lines === undefined ? {} : { observation: { linesAdded: lines, linesRemoved: 0 } }),
        }),
      ]);

      // Assess
      expect(state.history[0]?.meaningfulChange).toBe(meaningful);
    });

    it('sums tests and warnings over the gates whose output names counts', () => {
      // Prepare
      const jest = gate('unit', 'Tests:       2 passed, 2 total\n');

      // Act
      const { state } = recordAll([
        result({ gates: [vitest(4, 1), jest, eslint(3), gate('build', 'done')] }),
      ]);

      // Assess
      expect(state.history[0]).toMatchObject({
        testsPassed: 6,
        testsFailed: 1,
        testsTotal: 7,
        warnings: 3,
      });
    });

    it('leaves the tallies out when no gate names them', () => {
      // Act
      const { state } = recordAll([result({ gates: [gate('build', 'compiled 3 files', false)] })]);

      // Assess
      const recorded = state.history[0];
      for (const key of ['testsPassed', 'testsFailed', 'testsTotal', 'warnings'])
        expect(recorded).not.toHaveProperty(key);
    });

    it('keeps the tests without the warnings when only a test runner reported', () => {
      // Act
      const { state } = recordAll([result({ gates: [vitest(5, 0)] })]);

      // Assess
      expect(state.history[0]).toMatchObject({ testsPassed: 5, testsFailed: 0, testsTotal: 5 });
      expect(state.history[0]).not.toHaveProperty('warnings');
    });

    it('lists the files a failed iteration left uncommitted, none for a passed one', () => {
      // Act
      const failed = recordAll([result({ filesChanged: ['src/a.ts', 'test/a.test.ts'] })]);
      const committed = recordAll([passed({ filesChanged: ['src/a.ts'] })]);

      // Assess
      expect(failed.state.history[0]?.filesTouchedUncommitted).toEqual([
        'src/a.ts',
        'test/a.test.ts',
      ]);
      expect(committed.state.history[0]?.filesTouchedUncommitted).toEqual([]);
    });

    // Product bug: record-control.ts puts every file uncommitted since the last commit
    // (`Object.keys(signals.nextUncommittedEdits)`) on each entry, not the files this
    // iteration changed, so the predictor counts a file once per later iteration.
    it('lists only the files this iteration changed, not earlier iterations’ files', () => {
      // Act
      const { state } = recordAll([
        result({ iteration: 1, filesChanged: ['src/a.ts'] }),
        result({ iteration: 2, filesChanged: ['src/b.ts'] }),
      ]);

      // Assess
      expect(state.history[1]?.filesTouchedUncommitted).toEqual(['src/b.ts']);
    });

    it('does not count a file changed once as repeatedly touched', () => {
      // Prepare: src/a.ts changed once, then three iterations on src/b.ts only
      const results = [
        result({ iteration: 1, filesChanged: ['src/a.ts'] }),
        ...numbered(3, (n) => result({ iteration: n + 1, filesChanged: ['src/b.ts'] })),
      ];

      // Act
      const { control } = recordAll(results);

      // Assess: src/b.ts, changed 3 times, is at the limit (3), not over it
      expect(control.risk?.contributions.map((c) => c.signal)).not.toContain(
        'repeated_file_touches',
      );
    });
  });

  describe('the history', () => {
    it('appends one entry per call, oldest first', () => {
      // Act
      const { state } = recordAll(numbered(3, (iteration) => result({ iteration })));

      // Assess
      expect(state.history.map((recorded) => recorded.iteration)).toEqual([1, 2, 3]);
    });

    it.each([
      [CONTROL_HISTORY_LIMIT - 1, 1],
      [CONTROL_HISTORY_LIMIT, 1],
      [CONTROL_HISTORY_LIMIT + 1, 2],
    ])('after %i iterations keeps at most the limit, from iteration %i', (count, first) => {
      // Act
      const { state } = recordAll(numbered(count, (iteration) => result({ iteration })));

      // Assess
      expect(state.history).toHaveLength(Math.min(count, CONTROL_HISTORY_LIMIT));
      expect(state.history[0]?.iteration).toBe(first);
      expect(state.history.at(-1)?.iteration).toBe(count);
    });
  });

  describe('what it carries forward', () => {
    it('moves the baseline gate counts on a pass only, and measures against it', () => {
      // Act
      const first = recordAll([passed({ iteration: 1, gates: [vitest(5, 0)] })]);
      const regressed = recordAll([result({ iteration: 2, gates: [vitest(4, 1)] })], {
        state: first.state,
      });
      const improved = recordAll([passed({ iteration: 3, gates: [vitest(6, 0)] })], {
        state: regressed.state,
      });

      // Assess
      expect(first.state.baselineGateCounts.test?.tests).toMatchObject({ passed: 5, total: 5 });
      expect(regressed.state.baselineGateCounts).toEqual(first.state.baselineGateCounts);
      expect(regressed.control.signals.testsPassingDelta).toBe(-1);
      expect(improved.control.signals.testsPassingDelta).toBe(1);
      expect(improved.state.baselineGateCounts.test?.tests).toMatchObject({ passed: 6, total: 6 });
    });

    it('counts uncommitted edits per file until a pass clears them', () => {
      // Act
      const once = recordAll([result({ iteration: 1, filesChanged: ['src/a.ts'] })]);
      const twice = recordAll([result({ iteration: 2, filesChanged: ['src/a.ts', 'src/b.ts'] })], {
        state: once.state,
      });
      const cleared = recordAll([passed({ iteration: 3, filesChanged: ['src/a.ts'] })], {
        state: twice.state,
      });

      // Assess
      expect(once.state.uncommittedEdits).toEqual({ 'src/a.ts': 1 });
      expect(twice.state.uncommittedEdits).toEqual({ 'src/a.ts': 2, 'src/b.ts': 1 });
      expect(cleared.state.uncommittedEdits).toEqual({});
    });

    it('flags a file edited the third time without a commit and stops counting it meaningful', () => {
      // Act
      const third = recordAll(
        numbered(3, (iteration) => result({ iteration, filesChanged: ['src/a.ts'] })),
      );
      const second = recordAll(
        numbered(2, (iteration) => result({ iteration, filesChanged: ['src/a.ts'] })),
      );

      // Assess
      expect(second.control.signals.repeatedEditFiles).toEqual([]);
      expect(second.state.history.at(-1)?.meaningfulChange).toBe(true);
      expect(third.control.signals.repeatedEditFiles).toEqual(['src/a.ts']);
      expect(third.state.history.at(-1)?.meaningfulChange).toBe(false);
    });

    it('starts the current task at its first iteration and keeps it while the task stays', () => {
      // Act
      const first = recordAll([result({ iteration: 4, startedAt: STARTED_AT })]);
      const same = recordAll([result({ iteration: 5, startedAt: '2025-01-15T11:00:00.000Z' })], {
        state: first.state,
      });

      // Assess
      const start = { taskId: 'US-001', startedIteration: 4, startedAt: STARTED_AT };
      expect(first.state.currentTask).toEqual(start);
      expect(same.state.currentTask).toEqual(start);
      expect(same.control.signals.currentTaskIterations).toBe(2);
      expect(same.control.signals.taskSwitched).toBe(false);
      expect(same.state.taskSwitchCount).toBe(0);
    });

    it('starts a new current task on a task switch, and counts the switch', () => {
      // Prepare
      const switchedAt = '2025-01-15T12:00:00.000Z';
      const earlier = recordAll(numbered(2, (iteration) => result({ iteration })));

      // Act
      const switched = recordAll(
        [result({ iteration: 3, taskId: 'US-002', startedAt: switchedAt, endedAt: switchedAt })],
        { state: earlier.state },
      );

      // Assess
      expect(switched.state.currentTask).toEqual({
        taskId: 'US-002',
        startedIteration: 3,
        startedAt: switchedAt,
      });
      expect(switched.control.signals.taskSwitched).toBe(true);
      expect(switched.control.signals.currentTaskIterations).toBe(1);
      expect(switched.state.taskSwitchCount).toBe(1);
    });
  });

  describe('the decisions', () => {
    const stuck = (iteration: number) => result({ iteration, outcome: 'no_changes' });

    it.each([
      [4, 'none'],
      [5, 'warning'],
      [9, 'warning'],
      [10, 'elevated'],
      [14, 'elevated'],
      [15, 'critical'],
    ] as const)(
      'after %i iterations without a change (threshold 5): stagnation %s',
      (count, level) => {
        // Act
        const { state, control } = recordAll(numbered(count, stuck));

        // Assess
        expect(control.stagnation.level).toBe(level);
        expect(control.stagnation.count).toBe(count);
        expect(control.stagnation).toEqual(
          stagnationLevel(runTrends(state.history, config), config),
        );
        expect(state.stagnation).toEqual({ ...control.stagnation, iteration: count });
      },
    );

    it('orders the debugger at the warning level', () => {
      // Act
      const { control } = recordAll(numbered(5, stuck));

      // Assess
      expect(control.stagnation).toMatchObject({ action: 'switch_mode', switchTo: 'debugger' });
    });

    it('counts a threshold from the configuration', () => {
      // Prepare
      const settings = LoopControlConfigSchema.parse({ loop: { stagnationThreshold: 2 } });

      // Act
      const { control } = recordAll(numbered(2, stuck), { settings });

      // Assess
      expect(control.stagnation.level).toBe('warning');
    });

    it('resets the stagnation count on a pass', () => {
      // Act
      const { control } = recordAll([...numbered(6, stuck), passed({ iteration: 7 })]);

      // Assess
      expect(control.stagnation).toMatchObject({ level: 'none', count: 0 });
    });

    it.each([
      [2, 'PROCEED'],
      [3, 'RESET'],
    ] as const)('the same error %i times: verdict %s', (times, verdict) => {
      // Act
      const { state, control } = recordAll(
        numbered(times, (iteration) =>
          result({ iteration, failureDetail: `src/a.ts(${iteration},1): error TS2322: bad` }),
        ),
      );

      // Assess
      expect(control.verdict.verdict).toBe(verdict);
      expect(control.verdict).toEqual(supervisorVerdict(runTrends(state.history, config), config));
      expect(state.verdict).toEqual({ ...control.verdict, iteration: times });
    });

    it.each([
      [5, 'PROCEED'],
      [6, 'ABORT'],
    ] as const)('%i of 10 tests failing: verdict %s', (failing, verdict) => {
      // Act
      const { control } = recordAll([result({ gates: [vitest(10 - failing, failing)] })]);

      // Assess
      expect(control.verdict.verdict).toBe(verdict);
    });

    it.each([
      [20, 'PROCEED'],
      [21, 'PAUSE'],
    ] as const)('%i warnings: verdict %s', (warnings, verdict) => {
      // Act
      const { control } = recordAll([passed({ gates: [eslint(warnings)] })]);

      // Assess
      expect(control.verdict.verdict).toBe(verdict);
    });

    it('records the stagnation risk the predictor gives for the history', () => {
      // Act
      const { state, control } = recordAll(
        numbered(5, (iteration) => result({ iteration, failureDetail: 'error TS2322: bad' })),
      );

      // Assess
      expect(control.risk).toEqual(stagnationRisk(runTrends(state.history, config), config));
      expect(control.risk?.contributions.map((c) => c.signal)).toContain('error_repetition');
    });
  });
});

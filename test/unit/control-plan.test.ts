import { describe, expect, it } from 'vitest';
import { runTrends } from '../../lambdas/core/control/facts/run-trends.js';
import type { z } from 'zod';
import {
  DEFAULT_LOOP_CONTROL_CONFIG,
  LoopControlConfigSchema,
  type LoopControlConfig,
  type LoopControlConfigInput,
} from '../../lambdas/core/schemas/control-config.js';
import {
  IterationSummarySchema,
  type IterationSummary,
  type IterationSummaryInput,
} from '../../lambdas/core/schemas/control-history.js';
import { planControl, type PlanControlInput } from '../../lambdas/core/control/plan-control.js';
import {
  PLAN_SECTIONS,
  PlanControlSchema,
  type PlanControl,
} from '../../lambdas/core/schemas/plan.js';
import { recoveryGuidance } from '../../lambdas/core/control/retry/recovery-strategy.js';
import { roleInstructions } from '../../lambdas/core/control/roles/select-role.js';
import { stagnationLevel } from '../../lambdas/core/control/stagnation/level.js';
import { RunControlStateSchema, type RunControlState } from '../../lambdas/core/schemas/control.js';
import type { GateResult } from '../../lambdas/core/schemas/gate-result.js';
import { makeGate } from '../support/records.js';
import { templates } from '../support/templates.js';

const GUIDANCE = recoveryGuidance(templates);

const NOW = '2025-01-15T10:00:00.000Z';
const MINUTE = 60_000;
const before = (ms: number): string => new Date(Date.parse(NOW) - ms).toISOString();

const story = {
  id: 'US-002',
  title: 'Priority badge',
  description: 'As a user I want to see each task’s priority.',
  acceptanceCriteria: ['The badge shows the priority', 'Typecheck passes'],
};
const config = DEFAULT_LOOP_CONTROL_CONFIG;
const configWith = (input: LoopControlConfigInput): LoopControlConfig =>
  LoopControlConfigSchema.parse(input);

const entry = (overrides: Partial<IterationSummaryInput> = {}): IterationSummary =>
  IterationSummarySchema.parse({
    iteration: 1,
    taskId: story.id,
    mode: 'implementer',
    outcome: 'gates_failed',
    committed: false,
    meaningfulChange: false,
    endedAt: NOW,
    ...overrides,
  });
const historyOf = (count: number, overrides: Partial<IterationSummaryInput> = {}) =>
  Array.from({ length: count }, (_, index) => entry({ iteration: index + 1, ...overrides }));
const stateOf = (input: z.input<typeof RunControlStateSchema>): RunControlState =>
  RunControlStateSchema.parse(input);

const gate = makeGate;
const tscGate = gate({
  name: 'typecheck',
  outputTail:
    "src/badge.ts(12,5): error TS2322: Type 'string' is not assignable to type 'number'.\n",
});
const vitestGate = gate({
  name: 'test',
  exitCode: 1,
  outputTail: [
    ' FAIL  test/badge.test.ts > Badge > shows the priority',
    'AssertionError: expected 1 to be 2',
    '',
    ' Test Files  1 failed (1)',
    '      Tests  1 failed | 4 passed (5)',
  ].join('\n'),
});
const failureOf = (
  gates: GateResult[],
  outcome: 'gates_failed' | 'agent_timeout' = 'gates_failed',
) => ({
  outcome,
  gates,
  detail: gates.map((failed) => failed.outputTail).join('\n'),
});

const plan = (
  overrides: Partial<PlanControlInput> = {},
  settings: LoopControlConfig = config,
): PlanControl =>
  planControl(
    { state: undefined, story, iteration: 5, now: NOW, templates, ...overrides },
    settings,
  );
const kinds = (planned: PlanControl) => planned.sections.map((section) => section.kind);
const sectionOf = (planned: PlanControl, kind: PlanControl['sections'][number]['kind']) =>
  planned.sections.find((section) => section.kind === kind);

describe('Function: planControl', () => {
  describe('role', () => {
    it('is the only section, in the implementer mode, with nothing to react to', () => {
      // Act
      const planned = plan();

      // Assess
      expect(planned.mode).toBe('implementer');
      expect(planned.sections).toEqual([
        {
          kind: 'role',
          title: 'Your role: implementer',
          body: roleInstructions('implementer', templates),
        },
      ]);
      expect(PlanControlSchema.parse(planned)).toEqual(planned);
    });

    it('is always first and carries the instructions of the mode chosen', () => {
      // Act
      const planned = plan({ lastFailure: failureOf([tscGate]) });

      // Assess
      expect(planned.mode).toBe('debugger');
      expect(planned.sections[0]).toEqual({
        kind: 'role',
        title: 'Your role: debugger',
        body: roleInstructions('debugger', templates),
      });
      expect(kinds(planned).filter((kind) => kind === 'role')).toHaveLength(1);
    });
  });

  describe('recovery and remediation', () => {
    it('after a compiler error: debugger mode, an isolated fix naming file and line, the gate to fix', () => {
      // Act
      const planned = plan({ lastFailure: failureOf([tscGate]) });

      // Assess
      expect(kinds(planned)).toEqual(['role', 'recovery', 'remediation']);
      expect(planned.why).toBe('the last attempt did not compile');
      const recovery = sectionOf(planned, 'recovery');
      expect(recovery?.title).toBe('Recovery: fix one compilation error');
      expect(recovery?.body).toContain('- File: `src/badge.ts`, line 12');
      expect(recovery?.body).toContain('TS2322');
      expect(recovery?.body).toContain(GUIDANCE.isolatedFix);
      const remediation = sectionOf(planned, 'remediation');
      expect(remediation?.title).toBe('Quality gates to fix');
      expect(remediation?.body).toContain('### Gate `typecheck`: type errors (blocking)');
      expect(remediation?.body).not.toMatch(/^## /m);
    });

    it('after a failing vitest test: debugger mode, test first, naming the test', () => {
      // Act
      const planned = plan({ lastFailure: failureOf([vitestGate]) });

      // Assess
      expect(planned.mode).toBe('debugger');
      expect(planned.why).toBe('the last attempt left a failing test');
      expect(kinds(planned)).toEqual(['role', 'recovery', 'remediation']);
      const recovery = sectionOf(planned, 'recovery');
      expect(recovery?.title).toBe('Recovery: make the failing test pass');
      expect(recovery?.body).toContain('Badge > shows the priority');
      expect(recovery?.body).toContain(GUIDANCE.testFirst);
      expect(sectionOf(planned, 'remediation')?.body).toContain(
        '### Gate `test`: failing tests (blocking)',
      );
    });

    it('without a last failure: neither section, implementer mode', () => {
      // Act
      const planned = plan({ lastFailure: undefined });

      // Assess
      expect(kinds(planned)).toEqual(['role']);
      expect(planned.mode).toBe('implementer');
    });

    it('after a failure whose gates all passed: no remediation, and no recovery for an unknown cause', () => {
      // Prepare
      const passing = gate({ name: 'typecheck', passed: true, exitCode: 0 });

      // Act
      const planned = plan({
        lastFailure: { outcome: 'agent_failed', gates: [passing], detail: '' },
      });

      // Assess
      expect(kinds(planned)).toEqual(['role']);
      expect(planned.mode).toBe('implementer');
    });

    it('after only an advisory lint gate failed: remediation without recovery or a mode change', () => {
      // Prepare
      const lint = gate({
        name: 'lint',
        blocking: false,
        exitCode: 1,
        outputTail: '  3:1  warning  Unexpected console statement  no-console',
      });

      // Act
      const planned = plan({ lastFailure: failureOf([lint]) });

      // Assess
      expect(kinds(planned)).toEqual(['role', 'remediation']);
      expect(planned.mode).toBe('implementer');
      expect(sectionOf(planned, 'remediation')?.body).toContain('advisory');
    });

    it('after a timeout: a recovery that is not a debugger’s, and nothing to remediate', () => {
      // Act
      const planned = plan({ lastFailure: failureOf([], 'agent_timeout') });

      // Assess
      expect(kinds(planned)).toEqual(['role', 'recovery']);
      expect(planned.mode).toBe('implementer');
      const recovery = sectionOf(planned, 'recovery');
      expect(recovery?.title).toBe('Recovery: gather context first');
      expect(recovery?.body).toContain('too complex (the agent ran out of time)');
      expect(recovery?.body).toContain(GUIDANCE.gatherContext);
    });
  });

  describe('anti-pattern', () => {
    /** The state after `count` iterations without progress, as recordControl stores it. */
    const stuckState = (count: number): RunControlState => {
      const history = historyOf(count, { outcome: 'no_changes' });
      return stateOf({
        history,
        stagnation: { ...stagnationLevel(runTrends(history, config), config), iteration: count },
      });
    };

    it.each([
      [4, 'none', false],
      [5, 'warning', true],
      [6, 'warning', true],
    ] as const)(
      'after %i iterations without progress (threshold 5), level %s: section %s',
      (count, level, present) => {
        // Prepare
        const state = stuckState(count);

        // Act
        const planned = plan({ state });

        // Assess
        expect(state.stagnation?.level).toBe(level);
        const section = sectionOf(planned, 'anti_pattern');
        if (!present) {
          expect(section).toBeUndefined();
          expect(planned.mode).toBe('implementer');
          return;
        }
        expect(section).toEqual({
          kind: 'anti_pattern',
          title: `Anti-pattern detected: stagnation (${level})`,
          body: state.stagnation?.diagnostics.summary,
        });
        expect(planned.mode).toBe('debugger');
        expect(planned.why).toBe(`stagnation warning: ${count} iterations without progress`);
        expect(planned.sections[0]?.title).toBe('Your role: debugger');
      },
    );

    it('at the elevated level: present, and the agent still debugs (levels build on each other)', () => {
      // Prepare
      const state = stuckState(10);

      // Act
      const planned = plan({ state });

      // Assess
      expect(state.stagnation?.level).toBe('elevated');
      expect(sectionOf(planned, 'anti_pattern')?.title).toBe(
        'Anti-pattern detected: stagnation (elevated)',
      );
      expect(planned.mode).toBe('debugger');
    });
  });

  describe('supervisor verdict', () => {
    const verdictState = (verdict: 'SWITCH_MODE' | 'PROCEED'): RunControlState =>
      stateOf({
        verdict: {
          verdict,
          rule: verdict === 'SWITCH_MODE' ? 'no_commit' : 'healthy',
          reason: verdict === 'SWITCH_MODE' ? '16 iterations without a commit' : 'healthy',
          ...(verdict === 'SWITCH_MODE' ? { switchTo: 'architect' as const } : {}),
          iteration: 16,
        },
      });

    it('SWITCH_MODE switches the mode, and adds no section of its own', () => {
      // Act
      const planned = plan({ state: verdictState('SWITCH_MODE') });

      // Assess
      expect(planned.mode).toBe('architect');
      expect(planned.why).toBe('supervisor: 16 iterations without a commit');
      expect(planned.sections).toEqual([
        {
          kind: 'role',
          title: 'Your role: architect',
          body: roleInstructions('architect', templates),
        },
      ]);
    });

    it('PROCEED leaves the mode alone', () => {
      expect(plan({ state: verdictState('PROCEED') }).mode).toBe('implementer');
    });

    it('overrides the debugger a compiler error would call for', () => {
      expect(
        plan({ state: verdictState('SWITCH_MODE'), lastFailure: failureOf([tscGate]) }).mode,
      ).toBe('architect');
    });
  });

  describe('prevention', () => {
    /**
     * Five iterations repeating one error: only the error-repetition signal fires (4 of 5
     * repeat, above 0.5), so the risk is exactly its weight.
     */
    const history = historyOf(5, { errorSignature: 'error TS2322: bad' });
    const riskOf = (weight: number, loop: LoopControlConfigInput['loop'] = {}) =>
      configWith({ loop, predictor: { weights: { errorRepetition: weight } } });

    it.each([
      [0.5, undefined],
      [0.500001, 'Narrow your focus'],
      [0.7, 'Narrow your focus'],
      [0.700001, 'How to get unstuck'],
      [0.9, 'How to get unstuck'],
    ] as const)('at risk %d (narrow above 0.5, unstick above 0.7): %s', (weight, title) => {
      // Act
      const planned = plan({ state: stateOf({ history }) }, riskOf(weight));

      // Assess
      const section = sectionOf(planned, 'prevention');
      expect(section?.title).toBe(title);
      expect(kinds(planned).filter((kind) => kind === 'prevention')).toHaveLength(title ? 1 : 0);
    });

    it('narrows the focus to the repeated error', () => {
      // Act
      const planned = plan({ state: stateOf({ history }) }, riskOf(0.6));

      // Assess
      expect(sectionOf(planned, 'prevention')?.body).toBe(
        'Fix only this error, and change nothing unrelated to it: error TS2322: bad (error: error TS2322: bad)',
      );
    });

    it('injects guidance naming the risk and what repeats', () => {
      // Act
      const planned = plan({ state: stateOf({ history }) }, riskOf(0.8));

      // Assess
      const body = sectionOf(planned, 'prevention')?.body ?? '';
      expect(body).toContain('Stagnation risk 0.8');
      expect(body).toContain('4 of the last 5 iterations repeated an earlier error');
    });

    it('is absent when predictive stagnation is disabled', () => {
      // Act
      const planned = plan(
        { state: stateOf({ history }) },
        riskOf(0.9, { enablePredictiveStagnation: false }),
      );

      // Assess
      expect(sectionOf(planned, 'prevention')).toBeUndefined();
    });

    it('is absent without a history', () => {
      expect(sectionOf(plan({ state: stateOf({}) }, riskOf(0.9)), 'prevention')).toBeUndefined();
    });
  });

  describe('time budget', () => {
    const onTask = (taskId: string, startedIteration: number, startedAt: string): RunControlState =>
      stateOf({ currentTask: { taskId, startedIteration, startedAt } });

    it.each([
      [7, false],
      [8, true],
      [9, true],
    ])('after %i iterations on the task (maxTaskIterations 8): present %s', (spent, present) => {
      // Prepare
      const state = onTask(story.id, 3, before(10 * MINUTE));

      // Act
      const planned = plan({ state, iteration: 3 + spent });

      // Assess
      const section = sectionOf(planned, 'time_budget');
      expect(section !== undefined).toBe(present);
      if (section) {
        expect(section.title).toBe('CRITICAL: time budget warning');
        expect(section.body).toContain(
          `You have spent 10 minutes and ${spent} iterations on this story.`,
        );
      }
    });

    it.each([
      ['exactly 30 minutes', 30 * MINUTE, false],
      ['30 minutes and 1 ms', 30 * MINUTE + 1, true],
    ])('after %s on the task (taskTimeoutMinutes 30): present %s', (_, elapsed, present) => {
      // Prepare
      const state = onTask(story.id, 4, before(elapsed));

      // Act
      const planned = plan({ state, iteration: 5 });

      // Assess
      expect(sectionOf(planned, 'time_budget') !== undefined).toBe(present);
    });

    it('follows the configured limits', () => {
      // Prepare
      const state = onTask(story.id, 4, before(5 * MINUTE + 1));
      const tight = configWith({ loop: { taskTimeoutMinutes: 5, maxTaskIterations: 50 } });

      // Act + Assess
      expect(sectionOf(plan({ state, iteration: 5 }, tight), 'time_budget')).toBeDefined();
      expect(sectionOf(plan({ state, iteration: 5 }), 'time_budget')).toBeUndefined();
    });

    it('is absent for a different task, however long that one ran', () => {
      // Prepare
      const state = onTask('US-001', 1, before(120 * MINUTE));

      // Act
      const planned = plan({ state, iteration: 40 });

      // Assess
      expect(sectionOf(planned, 'time_budget')).toBeUndefined();
    });

    it('is absent when no task has been worked on', () => {
      expect(sectionOf(plan({ state: stateOf({}), iteration: 40 }), 'time_budget')).toBeUndefined();
    });
  });

  it('with every condition holding, has each section once, in the documented order', () => {
    // Prepare
    // Stuck for 5 iterations (warning), repeating one error on one file (risk 0.4 + 0.3).
    const history = historyOf(5, {
      errorSignature: 'error TS2322: bad',
      filesTouchedUncommitted: ['src/badge.ts'],
    });
    const state = stateOf({
      history,
      stagnation: { ...stagnationLevel(runTrends(history, config), config), iteration: 5 },
      currentTask: { taskId: story.id, startedIteration: 1, startedAt: before(45 * MINUTE) },
    });

    // Act
    const planned = plan({
      state,
      lastFailure: failureOf([tscGate]),
      review: { lines: ['[missing tests] no test file changed'], last: false },
      iteration: 6,
      subtasks: [
        { id: `${story.id}.1`, title: 'First', acceptanceCriteria: ['a'], status: 'open' },
        { id: `${story.id}.2`, title: 'Second', acceptanceCriteria: ['b'], status: 'open' },
      ],
    });

    // Assess
    expect(kinds(planned)).toEqual([...PLAN_SECTIONS]);
    expect(PlanControlSchema.parse(planned)).toEqual(planned);
  });
});

describe('Function: planControl with dynamic prompts off', () => {
  it('still chooses the mode, and adds no section at all', () => {
    // Prepare
    const config = LoopControlConfigSchema.parse({ loop: { enableDynamicPrompts: false } });

    // Act
    const planned = planControl(
      {
        templates,
        state: undefined,
        story: { id: 'US-001', title: 'A', description: 'B', acceptanceCriteria: ['C'] },
        iteration: 1,
        now: '2026-01-01T00:00:00Z',
      },
      config,
    );

    // Assess
    expect(planned.mode).toBe('implementer');
    expect(planned.sections).toEqual([]);
  });
});

describe('Function: planControl for a decomposed story', () => {
  const story = { id: 'US-002', title: 'Export', description: 'D', acceptanceCriteria: ['a', 'b'] };
  const input = { state: undefined, story, iteration: 3, now: '2026-01-01T00:00:00Z', templates };

  it('names the next open subtask and its criteria, and marks the done ones', () => {
    // Act
    const planned = planControl(
      {
        ...input,
        subtasks: [
          { id: 'US-002.1', title: 'Header row', acceptanceCriteria: ['a'], status: 'complete' },
          { id: 'US-002.2', title: 'Done column', acceptanceCriteria: ['b'], status: 'open' },
        ],
      },
      DEFAULT_LOOP_CONTROL_CONFIG,
    );

    // Assess
    const section = planned.sections.find((candidate) => candidate.kind === 'subtask');
    expect(section?.title).toBe('Decomposed: work on subtask 2 of 2 ONLY');
    expect(section?.body).toContain('1. US-002.1: Header row (done)');
    expect(section?.body).toContain('2. US-002.2: Done column ← this one\n   - b');
  });

  it('has no subtask section for a story that was not decomposed, or whose subtasks are done', () => {
    const none = planControl(input, DEFAULT_LOOP_CONTROL_CONFIG);
    const allDone = planControl(
      {
        ...input,
        subtasks: [
          { id: 'US-002.1', title: 'A', acceptanceCriteria: [], status: 'complete' },
          { id: 'US-002.2', title: 'B', acceptanceCriteria: [], status: 'complete' },
        ],
      },
      DEFAULT_LOOP_CONTROL_CONFIG,
    );
    expect(none.sections.some((candidate) => candidate.kind === 'subtask')).toBe(false);
    expect(allDone.sections.some((candidate) => candidate.kind === 'subtask')).toBe(false);
  });
});

describe('Function: planControl for a task in review', () => {
  const review = {
    lines: [
      '[missing tests] 12 source lines added in 1 file (src/cart.ts) and no test file changed',
    ],
    last: false,
  };

  it('works in the reviewer mode with the findings, as a list, in a review section', () => {
    // Act
    const planned = plan({ review });

    // Assess
    expect(planned.mode).toBe('reviewer');
    expect(planned.why).toBe('tests pass: review before completing');
    expect(kinds(planned)).toEqual(['role', 'review']);
    const section = sectionOf(planned, 'review');
    expect(section?.title).toBe('Review findings to address');
    expect(section?.body).toContain(`- ${review.lines[0]}`);
    expect(section?.body).toContain('completes once the gates pass without findings');
    expect(section?.body).not.toContain('This is the last review');
  });

  it('says when the review is the last one', () => {
    const section = sectionOf(plan({ review: { ...review, last: true } }), 'review');
    expect(section?.body).toContain('This is the last review');
    expect(section?.body).not.toContain('completes once the gates pass without findings');
  });

  it('has no review section, and another mode, for a task not in review', () => {
    const planned = plan();
    expect(planned.mode).toBe('implementer');
    expect(sectionOf(planned, 'review')).toBeUndefined();
  });

  it('calls the debugger when the review attempt before failed to compile, findings kept', () => {
    const planned = plan({ review, lastFailure: failureOf([tscGate]) });
    expect(planned.mode).toBe('debugger');
    expect(kinds(planned)).toContain('review');
  });
});

describe('Function: planControl with dynamic prompts off, for work that needs saying', () => {
  it('keeps the subtask and review sections, and only those', () => {
    // Prepare
    const off = LoopControlConfigSchema.parse({ loop: { enableDynamicPrompts: false } });

    // Act
    const planned = plan(
      {
        review: { lines: ['[warnings] lint: 3 warnings (eslint)'], last: true },
        lastFailure: failureOf([tscGate]),
        subtasks: [
          { id: `${story.id}.1`, title: 'First', acceptanceCriteria: ['a'], status: 'open' },
          { id: `${story.id}.2`, title: 'Second', acceptanceCriteria: ['b'], status: 'open' },
        ],
      },
      off,
    );

    // Assess
    expect(kinds(planned)).toEqual(['subtask', 'review']);
  });
});

describe('Function: planControl: the role from the task state (design §3.8)', () => {
  const bigStory = {
    ...story,
    acceptanceCriteria: ['Shows a badge', 'Counts unread', 'Hides at zero', 'Animates on change'],
  };

  it('starts a story with more than three real criteria as the planner, a small one as the implementer', () => {
    expect(plan({ story: bigStory, task: { status: 'not_started' } }).mode).toBe('planner');
    expect(plan({ task: { status: 'not_started' } }).mode).toBe('implementer');
  });

  it('plans afresh for a task picked again after a block', () => {
    const planned = plan({ task: { status: 'blocked', reason: '3 attempts failed' } });
    expect(planned.mode).toBe('planner');
    expect(planned.why).toContain('3 attempts failed');
  });

  it('calls the tester for a story in review whose findings are about tests it asks for', () => {
    const review = { lines: ['[missing tests] no test file changed'], last: true };
    const asksForTests = { ...story, acceptanceCriteria: ['Shows a badge', 'Unit tests cover it'] };
    expect(
      plan({ story: asksForTests, review, task: { status: 'in_review', testsPassing: false } })
        .mode,
    ).toBe('tester');
    expect(plan({ review, task: { status: 'in_review', testsPassing: true } }).mode).toBe(
      'reviewer',
    );
  });

  it('calls the architect when a decomposed story proves too complex again', () => {
    const subtasks = [
      { id: `${story.id}.1`, title: 'First', acceptanceCriteria: ['a'], status: 'open' as const },
    ];
    const timedOut = {
      outcome: 'agent_timeout' as const,
      gates: [],
      detail: 'the agent timed out after 1800 s',
    };
    expect(plan({ subtasks, lastFailure: timedOut }).mode).toBe('architect');
    expect(plan({ lastFailure: timedOut }).mode).toBe('implementer');
  });
});

import { describe, expect, it } from 'vitest';
import { runTrends } from '../../lambdas/core/control/facts/run-trends.js';
import {
  DEFAULT_LOOP_CONTROL_CONFIG,
  LoopControlConfigSchema,
} from '../../lambdas/core/schemas/control-config.js';
import type { IterationSummary } from '../../lambdas/core/schemas/control-history.js';
import {
  actionableItem,
  preventiveAction,
  stagnationRisk,
} from '../../lambdas/core/control/predictor/risk.js';
import {
  type RiskSignal,
  type StagnationRisk,
} from '../../lambdas/core/schemas/control-decisions.js';
import { historyFactory, type SummaryOverrides as Overrides } from '../support/control-history.js';

const { entry, history, repeat } = historyFactory();
const config = DEFAULT_LOOP_CONTROL_CONFIG;
const signals = (entries: IterationSummary[], settings = config): RiskSignal[] =>
  stagnationRisk(runTrends(entries, settings), settings).contributions.map(
    (contribution) => contribution.signal,
  );
const risk = (score: number): StagnationRisk => ({ score, contributions: [] });

describe('Function: stagnationRisk', () => {
  it('is 0 with no signal', () => {
    expect(stagnationRisk(runTrends([], config), config)).toEqual({ score: 0, contributions: [] });
    expect(
      stagnationRisk(runTrends(history(...repeat(8, { committed: true })), config), config),
    ).toEqual({
      score: 0,
      contributions: [],
    });
  });

  describe('repeated file touches', () => {
    it.each([
      [3, false],
      [4, true],
    ])('a file left uncommitted by %d iterations: %s', (times, fired) => {
      // Prepare
      const entries = history(...repeat(times, { filesTouchedUncommitted: ['src/a.ts'] }));

      // Act
      const result = stagnationRisk(runTrends(entries, config), config);

      // Assess
      expect(result).toEqual(
        fired
          ? {
              score: 0.3,
              contributions: [
                {
                  signal: 'repeated_file_touches',
                  weight: 0.3,
                  detail: 'src/a.ts was changed in 4 iterations without a commit',
                },
              ],
            }
          : { score: 0, contributions: [] },
      );
    });

    it('counts only since the last commit', () => {
      // Prepare
      const touched = { filesTouchedUncommitted: ['src/a.ts'] };
      const entries = history(...repeat(3, touched), { committed: true }, ...repeat(3, touched));

      // Act + Assess
      expect(signals(entries)).toEqual([]);
      expect(signals([...entries, entry({ iteration: 8, ...touched })])).toEqual([
        'repeated_file_touches',
      ]);
    });

    it('counts a file listed twice in one iteration once', () => {
      // Prepare
      const entries = history(...repeat(3, { filesTouchedUncommitted: ['a.ts', 'a.ts'] }));

      // Act + Assess
      expect(signals(entries)).toEqual([]);
    });
  });

  describe('stagnant test count', () => {
    const tests = (...totals: (number | undefined)[]): Overrides[] =>
      totals.map((testsTotal) => (testsTotal === undefined ? {} : { testsTotal }));

    it.each([
      ['4 iterations at the same count', [10, 10, 10, 10, 10], false],
      ['5 iterations at the same count', [10, 10, 10, 10, 10, 10], true],
      ['5 iterations, one with a new test', [10, 10, 10, 11, 10, 10], false],
      ['5 iterations below the count', [10, 8, 8, 9, 9, 10], true],
      [
        '5 iterations that reported nothing',
        [10, undefined, undefined, undefined, undefined, undefined],
        true,
      ],
      ['no count before the 5 iterations', [undefined, 10, 10, 10, 10, 10], false],
    ])('%s: %s', (_name, totals, fired) => {
      expect(signals(history(...tests(...totals))).includes('stagnant_test_count')).toBe(fired);
    });

    it('says which count it is stuck at', () => {
      // Act
      const { contributions } = stagnationRisk(
        runTrends(history(...tests(7, 7, 7, 7, 7, 7)), config),
        config,
      );

      // Assess
      expect(contributions).toEqual([
        {
          signal: 'stagnant_test_count',
          weight: 0.2,
          detail: 'the test count has not risen above 7 for 5 iterations',
        },
      ]);
    });
  });

  describe('error repetition', () => {
    const errors = (...signatures: (string | undefined)[]): Overrides[] =>
      signatures.map((errorSignature) => (errorSignature === undefined ? {} : { errorSignature }));

    it.each([
      ['one error', ['A'], false],
      ['A A: 1 of 2 repeats', ['A', 'A'], false],
      ['A A A: 2 of 3', ['A', 'A', 'A'], true],
      ['A B A B: 2 of 4', ['A', 'B', 'A', 'B'], false],
      ['A B A B A: 3 of 5', ['A', 'B', 'A', 'B', 'A'], true],
      ['A A A - -: 2 of 5', ['A', 'A', 'A', undefined, undefined], false],
      ['A A A A -: 3 of 5', ['A', 'A', 'A', 'A', undefined], true],
      [
        'repeats before the window of 5',
        ['A', 'A', 'A', 'A', undefined, undefined, undefined, undefined, 'A'],
        false,
      ],
    ])('%s: %s', (_name, signatures, fired) => {
      expect(signals(history(...errors(...signatures))).includes('error_repetition')).toBe(fired);
    });

    it('fires above exactly half, not at it, in a configured window', () => {
      // Prepare
      const four = LoopControlConfigSchema.parse({ predictor: { windowIterations: 4 } });

      // Act + Assess
      expect(signals(history(...errors('X', 'A', 'A', 'A')), four)).toEqual([]);
      expect(signals(history(...errors('A', 'A', 'A', 'A')), four)).toEqual(['error_repetition']);
    });

    it('names the error that repeats', () => {
      // Act
      const { contributions } = stagnationRisk(
        runTrends(history(...errors('B', 'A', 'A', 'A', 'A')), config),
        config,
      );

      // Assess
      expect(contributions).toEqual([
        {
          signal: 'error_repetition',
          weight: 0.4,
          detail: '3 of the last 5 iterations repeated an earlier error, most often "A" (4 times)',
        },
      ]);
    });
  });

  describe('recent mode switch', () => {
    it.each([
      ['in the last iteration', ['implementer', 'implementer', 'implementer', 'debugger'], true],
      ['two iterations back', ['implementer', 'implementer', 'debugger', 'debugger'], true],
      ['three iterations back', ['implementer', 'debugger', 'debugger', 'debugger'], false],
      ['never', ['implementer', 'implementer', 'implementer'], false],
    ] as const)('a switch %s: %s', (_name, modes, fired) => {
      expect(
        signals(history(...modes.map((mode) => ({ mode })))).includes('recent_mode_switch'),
      ).toBe(fired);
    });

    it('does not count a new task starting in another mode', () => {
      // Prepare
      const entries = history(
        { taskId: 'US-1', mode: 'reviewer' },
        { taskId: 'US-2', mode: 'planner' },
      );

      // Act + Assess
      expect(signals(entries)).toEqual([]);
    });

    it('says which switch it saw', () => {
      // Act
      const { contributions } = stagnationRisk(
        runTrends(history({ mode: 'implementer' }, { mode: 'debugger' }), config),
        config,
      );

      // Assess
      expect(contributions).toEqual([
        {
          signal: 'recent_mode_switch',
          weight: 0.2,
          detail: 'the mode switched from implementer to debugger in iteration 2',
        },
      ]);
    });
  });

  it('adds the weights of the signals that fired, reading 0.9 not 0.8999999999999999', () => {
    // Prepare: error repetition 0.4 + file touches 0.3 + recent mode switch 0.2
    const entries = history(
      ...repeat(3, { errorSignature: 'E', filesTouchedUncommitted: ['a.ts'] }),
      { errorSignature: 'E', filesTouchedUncommitted: ['a.ts'], mode: 'debugger' },
    );

    // Act
    const result = stagnationRisk(runTrends(entries, config), config);

    // Assess
    expect(result.score).toBe(0.9);
    expect(result.contributions.map((contribution) => contribution.signal)).toEqual([
      'repeated_file_touches',
      'error_repetition',
      'recent_mode_switch',
    ]);
  });

  it('caps the score at 1', () => {
    // Prepare: all four signals, 1.1 in total
    const entries = history(
      { testsTotal: 5 },
      ...repeat(4, { errorSignature: 'E', filesTouchedUncommitted: ['a.ts'], testsTotal: 5 }),
      { errorSignature: 'E', filesTouchedUncommitted: ['a.ts'], testsTotal: 5, mode: 'debugger' },
    );

    // Act
    const result = stagnationRisk(runTrends(entries, config), config);

    // Assess
    expect(result.contributions).toHaveLength(4);
    expect(result.score).toBe(1);
  });
});

describe('Function: actionableItem', () => {
  it('takes the latest error in the window first', () => {
    // Prepare
    const entries = history(
      { errorSignature: 'old', filesTouchedUncommitted: ['a.ts'] },
      { errorSignature: 'new', filesTouchedUncommitted: ['a.ts'] },
      {},
    );

    // Act + Assess
    expect(actionableItem(runTrends(entries, config))).toEqual({
      source: 'error',
      subject: 'new',
      instruction: 'Fix only this error, and change nothing unrelated to it: new',
    });
  });

  it('falls back to the file most often left uncommitted', () => {
    // Prepare: the error is older than the window of 5
    const entries = history(
      { errorSignature: 'old' },
      { filesTouchedUncommitted: ['a.ts', 'b.ts'] },
      { filesTouchedUncommitted: ['b.ts'] },
      ...repeat(3),
    );

    // Act + Assess
    expect(actionableItem(runTrends(entries, config))).toEqual({
      source: 'file',
      subject: 'b.ts',
      instruction:
        'Finish the change to b.ts (left uncommitted by 2 iterations) and get it committed before touching any other file.',
    });
  });

  it('falls back to the current task', () => {
    expect(actionableItem(runTrends(history({ taskId: 'US-7' }), config))).toMatchObject({
      source: 'task',
      subject: 'US-7',
    });
  });

  it('has nothing to offer without history', () => {
    expect(actionableItem(runTrends([], config))).toBeUndefined();
  });
});

describe('Function: preventiveAction', () => {
  const entries = history({ errorSignature: 'error: boom' });

  it.each([
    [0, 'none'],
    [0.5, 'none'],
    [0.5000001, 'narrow_focus'],
    [0.6, 'narrow_focus'],
    [0.7, 'narrow_focus'],
    [0.7000001, 'inject_guidance'],
    [1, 'inject_guidance'],
  ])('risk %d: %s', (score, type) => {
    expect(preventiveAction(risk(score), runTrends(entries, config), config).type).toBe(type);
  });

  it('treats a sum that reads 0.6000000000000001 as exactly 0.6', () => {
    // Prepare: stagnant test count 0.2 + error repetition 0.4, against a limit of 0.6
    const atSixTenths = LoopControlConfigSchema.parse({ predictor: { narrowFocusAbove: 0.6 } });
    const stuck = history({ testsTotal: 4 }, ...repeat(5, { testsTotal: 4, errorSignature: 'E' }));

    // Act
    const computed = stagnationRisk(runTrends(stuck, atSixTenths), atSixTenths);
    const action = preventiveAction(
      { ...computed, score: 0.2 + 0.4 },
      runTrends(stuck, atSixTenths),
      atSixTenths,
    );

    // Assess
    expect(computed.score).toBe(0.6);
    expect(0.2 + 0.4).toBeGreaterThan(0.6);
    expect(action.type).toBe('none');
  });

  it('narrows the focus to the single actionable item', () => {
    expect(preventiveAction(risk(0.6), runTrends(entries, config), config)).toEqual({
      type: 'narrow_focus',
      item: {
        source: 'error',
        subject: 'error: boom',
        instruction: 'Fix only this error, and change nothing unrelated to it: error: boom',
      },
    });
  });

  it('injects guidance that names what repeats', () => {
    // Prepare
    const looping = history(
      ...repeat(4, { errorSignature: 'error: boom', filesTouchedUncommitted: ['src/a.ts'] }),
    );
    const computed = stagnationRisk(runTrends(looping, config), config);

    // Act
    const action = preventiveAction(computed, runTrends(looping, config), config);

    // Assess
    expect(computed.score).toBe(0.7);
    expect(action.type).toBe('narrow_focus');
    const worse = preventiveAction({ ...computed, score: 0.9 }, runTrends(looping, config), config);
    expect(worse).toEqual({
      type: 'inject_guidance',
      guidance: [
        'Stagnation risk 0.9: the last iterations are going round in circles.',
        'What repeats:',
        '- src/a.ts was changed in 4 iterations without a commit',
        '- 3 of the last 4 iterations repeated an earlier error, most often "error: boom" (4 times)',
        'Do not try the approach of the last iterations again: step back, read the failing output in full, and choose a different approach.',
        'Fix only this error, and change nothing unrelated to it: error: boom',
        'If it cannot be done, write down what blocks it in the learnings of your final message and stop.',
      ].join('\n'),
    });
  });

  it('does nothing while predictive stagnation is disabled', () => {
    // Prepare
    const disabled = LoopControlConfigSchema.parse({ loop: { enablePredictiveStagnation: false } });

    // Act + Assess
    expect(preventiveAction(risk(1), runTrends(entries, disabled), disabled)).toEqual({
      type: 'none',
    });
  });

  it('does nothing without history', () => {
    expect(preventiveAction(risk(1), runTrends([], config), config)).toEqual({ type: 'none' });
  });

  it('follows configured thresholds', () => {
    // Prepare
    const eager = LoopControlConfigSchema.parse({
      predictor: { narrowFocusAbove: 0.1, unstickAbove: 0.3 },
    });

    // Act + Assess
    expect(preventiveAction(risk(0.2), runTrends(entries, eager), eager).type).toBe('narrow_focus');
    expect(preventiveAction(risk(0.31), runTrends(entries, eager), eager).type).toBe(
      'inject_guidance',
    );
  });
});

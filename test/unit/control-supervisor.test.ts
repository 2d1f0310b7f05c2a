import { describe, expect, it } from 'vitest';
import {
  DEFAULT_LOOP_CONTROL_CONFIG,
  LoopControlConfigSchema,
} from '../../lambdas/core/schemas/control-config.js';
import { supervisorVerdict } from '../../lambdas/core/control/supervisor/verdict.js';
import { type VerdictRule } from '../../lambdas/core/schemas/control-decisions.js';
import { VERDICT_RULES } from '../../lambdas/core/schemas/control-decisions.js';
import { runTrends, type RunTrends } from '../../lambdas/core/control/facts/run-trends.js';
import { errorSeen, historyFactory, trendsWith } from '../support/control-history.js';

const { history, repeat } = historyFactory({
  outcome: 'passed',
  committed: true,
  meaningfulChange: true,
});
const config = DEFAULT_LOOP_CONTROL_CONFIG;

const verdictOf = (overrides: Partial<RunTrends>) =>
  supervisorVerdict(trendsWith(overrides), config);

describe('Function: supervisorVerdict', () => {
  it('proceeds when healthy, saying what it saw', () => {
    expect(
      verdictOf({ warningCount: 3, iterationsSinceCommit: 2, iterationsWithoutProgress: 1 }),
    ).toEqual({
      verdict: 'PROCEED',
      rule: 'healthy',
      reason:
        'healthy: test pass rate 100%, 3 warnings, 2 iterations since a commit, ' +
        '0 back-and-forth mode switches, 1 iterations without progress',
    });
  });

  it.each([
    [0, 'ABORT'],
    [0.49, 'ABORT'],
    [0.4999999, 'ABORT'],
    [0.5, 'PROCEED'],
    [0.51, 'PROCEED'],
  ])('pass rate %d: %s', (testPassRate, verdict) => {
    expect(verdictOf({ testPassRate }).verdict).toBe(verdict);
  });

  it('does not abort on an unknown pass rate', () => {
    expect(verdictOf({ testPassRate: null })).toMatchObject({
      verdict: 'PROCEED',
      reason: expect.stringContaining('no test results yet'),
    });
  });

  it('explains an abort on the pass rate with its numbers', () => {
    expect(verdictOf({ testPassRate: 0.4 })).toEqual({
      verdict: 'ABORT',
      rule: 'low_pass_rate',
      reason: 'test pass rate 40% is below 50%',
    });
  });

  it.each([
    [20, 'PROCEED'],
    [21, 'PAUSE'],
    [null, 'PROCEED'],
  ])('%s warnings: %s', (warningCount, verdict) => {
    expect(verdictOf({ warningCount }).verdict).toBe(verdict);
  });

  it('explains a pause with its numbers', () => {
    expect(verdictOf({ warningCount: 21 })).toEqual({
      verdict: 'PAUSE',
      rule: 'too_many_warnings',
      reason: '21 warnings, more than 20: review before going on',
    });
  });

  it.each([
    [4, 'PROCEED'],
    [5, 'ABORT'],
  ])('%d mode switches: %s', (modeReturns, verdict) => {
    expect(verdictOf({ modeReturns }).verdict).toBe(verdict);
  });

  it('explains an abort on oscillation with its numbers', () => {
    expect(verdictOf({ modeReturns: 5 })).toEqual({
      verdict: 'ABORT',
      rule: 'mode_oscillation',
      reason: 'the mode switched back and forth 5 times, more than 4',
    });
  });

  it.each([
    [1, 'PROCEED'],
    [2, 'RESET'],
    [3, 'RESET'],
  ])('an error repeated %d times: %s', (repeats, verdict) => {
    expect(verdictOf({ repeatedErrors: errorSeen('E', repeats + 1) }).verdict).toBe(verdict);
  });

  it('explains a reset with the error and its numbers', () => {
    expect(verdictOf({ repeatedErrors: errorSeen('error: boom', 3) })).toEqual({
      verdict: 'RESET',
      rule: 'repeating_error',
      reason: 'the same error repeated 2 times (limit 2): "error: boom"',
    });
  });

  it.each([
    [15, 'PROCEED'],
    [16, 'SWITCH_MODE'],
  ])('%d iterations since a commit: %s', (iterationsSinceCommit, verdict) => {
    expect(verdictOf({ iterationsSinceCommit }).verdict).toBe(verdict);
  });

  it('switches to the debugger after too long without a commit', () => {
    expect(verdictOf({ iterationsSinceCommit: 16 })).toEqual({
      verdict: 'SWITCH_MODE',
      rule: 'no_commit',
      switchTo: 'debugger',
      reason: '16 iterations without a commit, more than 15: switching to the debugger',
    });
  });

  type Trigger = Exclude<VerdictRule, 'healthy'>;
  const triggers: Record<Trigger, Partial<RunTrends>> = {
    low_pass_rate: { testPassRate: 0.3 },
    too_many_warnings: { warningCount: 40 },
    mode_oscillation: { modeReturns: 6 },
    repeating_error: { repeatedErrors: errorSeen('E', 4) },
    no_commit: { iterationsSinceCommit: 30 },
  };
  const ordered = VERDICT_RULES.filter((rule): rule is Trigger => rule !== 'healthy');

  it.each(ordered.slice(0, -1).map((rule, index) => [rule, ordered[index + 1] ?? rule] as const))(
    'lets %s win over %s when both hold',
    (earlier, later) => {
      // Prepare
      const metrics = { ...triggers[later], ...triggers[earlier] };

      // Act + Assess
      expect(verdictOf(metrics).rule).toBe(earlier);
    },
  );

  it.each(ordered.map((rule, index) => [rule, index] as const))(
    'applies %s before every later rule, all holding',
    (rule, index) => {
      // Prepare
      const metrics: Partial<RunTrends> = Object.assign(
        {},
        ...ordered.slice(index).map((name) => triggers[name]),
      );

      // Act + Assess
      expect(verdictOf(metrics).rule).toBe(rule);
    },
  );

  it('follows configured limits', () => {
    // Prepare
    const strict = LoopControlConfigSchema.parse({
      supervisor: { abortBelowPassRate: 0.9, debugAfterIterationsWithoutCommit: 3 },
    });

    // Act + Assess
    expect(supervisorVerdict(trendsWith({ testPassRate: 0.89 }), strict).verdict).toBe('ABORT');
    expect(supervisorVerdict(trendsWith({ iterationsSinceCommit: 4 }), strict).verdict).toBe(
      'SWITCH_MODE',
    );
  });

  it('rules on a history end to end', () => {
    // Prepare: the same test failure three times after a passing start
    const entries = history(
      { testsPassed: 10, testsTotal: 10, warnings: 2 },
      ...repeat(3, {
        committed: false,
        outcome: 'gates_failed',
        errorSignature: 'FAIL test/a.test.ts > adds',
        testsPassed: 9,
        testsTotal: 10,
        warnings: 2,
      }),
    );

    // Act
    const verdict = supervisorVerdict(runTrends(entries, config), config);

    // Assess
    expect(verdict).toEqual({
      verdict: 'RESET',
      rule: 'repeating_error',
      reason: 'the same error repeated 2 times (limit 2): "FAIL test/a.test.ts > adds"',
    });
  });

  it.each([
    [1, 'PROCEED', undefined],
    [2, 'RESET', 1],
    [3, 'RESET', 2],
  ] as const)(
    'counts an error seen %d times in the window as its repeats: %s',
    (times, verdict, repeats) => {
      // Prepare
      const atOne = LoopControlConfigSchema.parse({ supervisor: { resetAtRepeatingError: 1 } });
      const entries = history(
        { errorSignature: 'other' },
        ...repeat(times, { errorSignature: 'error TS2345: bad', committed: false }),
      );

      // Act
      const ruled = supervisorVerdict(runTrends(entries, atOne), atOne);

      // Assess
      expect(ruled.verdict).toBe(verdict);
      if (repeats !== undefined)
        expect(ruled.reason).toBe(
          `the same error repeated ${repeats} times (limit 1): "error TS2345: bad"`,
        );
    },
  );
});

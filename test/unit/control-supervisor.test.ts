import { describe, expect, it } from 'vitest';
import {
  DEFAULT_LOOP_CONTROL_CONFIG,
  LoopControlConfigSchema,
} from '../../lambdas/core/schemas/control-config.js';
import { supervisorVerdict } from '../../lambdas/core/control/supervisor/verdict.js';
import { type VerdictRule } from '../../lambdas/core/schemas/control-decisions.js';
import { VERDICT_RULES } from '../../lambdas/core/schemas/control-decisions.js';
import { healthMetrics, type HealthMetrics } from '../../lambdas/core/control/supervisor/health.js';
import { historyFactory } from '../support/control-history.js';

const { history, repeat } = historyFactory({
  outcome: 'passed',
  committed: true,
  meaningfulChange: true,
});
const config = DEFAULT_LOOP_CONTROL_CONFIG;

const healthy: HealthMetrics = {
  testPassRate: 1,
  warningCount: 0,
  iterationsSinceCommit: 0,
  modeSwitches: 0,
  repeatingErrorCount: 0,
  stagnationCount: 0,
};
const verdictOf = (overrides: Partial<HealthMetrics>) =>
  supervisorVerdict({ ...healthy, ...overrides }, config);

describe('Function: healthMetrics', () => {
  it('reads a healthy history', () => {
    // Act
    const metrics = healthMetrics(
      history({ testsPassed: 10, testsTotal: 10, warnings: 0 }),
      config,
    );

    // Assess
    expect(metrics).toEqual(healthy);
  });

  it('leaves pass rate and warnings unknown until an iteration reports them', () => {
    // Act
    const metrics = healthMetrics(history({}, {}), config);

    // Assess
    expect(metrics).toMatchObject({ testPassRate: null, warningCount: null });
    expect(healthMetrics([], config)).toEqual({
      ...healthy,
      testPassRate: null,
      warningCount: null,
    });
  });

  it('takes the latest reported pass rate and warning count', () => {
    // Prepare
    const entries = history(
      { testsPassed: 4, testsTotal: 10, warnings: 30 },
      { testsPassed: 9, testsTotal: 10, warnings: 3 },
      { testsPassed: 0, testsTotal: 0 },
      {},
    );

    // Act
    const metrics = healthMetrics(entries, config);

    // Assess
    expect(metrics).toMatchObject({ testPassRate: 0.9, warningCount: 3 });
  });

  it('counts iterations since a commit and without progress separately', () => {
    // Prepare
    const entries = history(
      {},
      { committed: false, meaningfulChange: true },
      { committed: false, meaningfulChange: false },
      { committed: false, meaningfulChange: false },
    );

    // Act
    const metrics = healthMetrics(entries, config);

    // Assess
    expect(metrics).toMatchObject({ iterationsSinceCommit: 3, stagnationCount: 2 });
  });

  it('counts back-and-forth mode switches within the window only', () => {
    // Prepare: two returns, then ten iterations later one more
    const modes = history(
      { mode: 'implementer' },
      { mode: 'debugger' },
      { mode: 'implementer' },
      { mode: 'debugger' },
      ...repeat(8, { mode: 'debugger' }),
    );

    // Act + Assess
    expect(healthMetrics(modes.slice(0, 4), config).modeSwitches).toBe(2);
    expect(healthMetrics(modes, config).modeSwitches).toBe(0);
  });

  it.each([
    [1, 0],
    [2, 1],
    [3, 2],
  ])('counts an error seen %d times in the window as %d repeats', (times, repeats) => {
    // Prepare
    const entries = history(
      { errorSignature: 'other' },
      ...repeat(times, { errorSignature: 'error TS2345: bad', committed: false }),
    );

    // Act
    const metrics = healthMetrics(entries, config);

    // Assess
    expect(metrics.repeatingErrorCount).toBe(repeats);
    expect(metrics.repeatingError).toBe(repeats > 0 ? 'error TS2345: bad' : undefined);
  });

  it('forgets an error that left the window', () => {
    // Prepare
    const entries = history({ errorSignature: 'E' }, ...repeat(9), { errorSignature: 'E' });

    // Act + Assess
    expect(healthMetrics(entries, config).repeatingErrorCount).toBe(0);
    expect(
      healthMetrics(entries.slice(0, 1).concat(entries.slice(2)), config).repeatingErrorCount,
    ).toBe(1);
  });
});

describe('Function: supervisorVerdict', () => {
  it('proceeds when healthy, saying what it saw', () => {
    expect(verdictOf({ warningCount: 3, iterationsSinceCommit: 2, stagnationCount: 1 })).toEqual({
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
  ])('%d mode switches: %s', (modeSwitches, verdict) => {
    expect(verdictOf({ modeSwitches }).verdict).toBe(verdict);
  });

  it('explains an abort on oscillation with its numbers', () => {
    expect(verdictOf({ modeSwitches: 5 })).toEqual({
      verdict: 'ABORT',
      rule: 'mode_oscillation',
      reason: 'the mode switched back and forth 5 times, more than 4',
    });
  });

  it.each([
    [1, 'PROCEED'],
    [2, 'RESET'],
    [3, 'RESET'],
  ])('an error repeated %d times: %s', (repeatingErrorCount, verdict) => {
    expect(verdictOf({ repeatingErrorCount }).verdict).toBe(verdict);
  });

  it('explains a reset with the error and its numbers', () => {
    expect(verdictOf({ repeatingErrorCount: 2, repeatingError: 'error: boom' })).toEqual({
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
  const triggers: Record<Trigger, Partial<HealthMetrics>> = {
    low_pass_rate: { testPassRate: 0.3 },
    too_many_warnings: { warningCount: 40 },
    mode_oscillation: { modeSwitches: 6 },
    repeating_error: { repeatingErrorCount: 3 },
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
      const metrics: Partial<HealthMetrics> = Object.assign(
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
    expect(supervisorVerdict({ ...healthy, testPassRate: 0.89 }, strict).verdict).toBe('ABORT');
    expect(supervisorVerdict({ ...healthy, iterationsSinceCommit: 4 }, strict).verdict).toBe(
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
    const verdict = supervisorVerdict(healthMetrics(entries, config), config);

    // Assess
    expect(verdict).toEqual({
      verdict: 'RESET',
      rule: 'repeating_error',
      reason: 'the same error repeated 2 times (limit 2): "FAIL test/a.test.ts > adds"',
    });
  });
});

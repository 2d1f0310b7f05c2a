import { describe, expect, it } from 'vitest';
import { iterationOf, type TimedStep } from '../../bench/orchestration/loop-steps.js';
import { samplesOf } from '../../bench/orchestration/samples.js';
import { makeIteration } from '../support/records.js';

const step = (state: string, iteration: number, start: number, end: number): TimedStep => ({
  state,
  iteration,
  start,
  end,
});

const passed = (iteration: number, agentMs: number) =>
  makeIteration({
    iteration,
    status: 'recorded',
    durations: { agentMs, gatesMs: 0, runnerMs: 30 },
  });

describe('bench/orchestration: the iteration a step belongs to', () => {
  it("reads RunAgent's from the container environment, the others' from the loop state", () => {
    const runAgent = {
      executionName: 'run',
      state: 'RunAgent',
      durationMs: 1,
      input: {
        Overrides: {
          ContainerOverrides: [{ Environment: [{ Name: 'RALPH_ITERATION', Value: '7' }] }],
        },
      },
    };
    expect(iterationOf(runAgent)).toBe(7);
    expect(iterationOf({ ...runAgent, input: {} })).toBeUndefined();
    expect(iterationOf({ ...runAgent, state: 'Advance', input: { iteration: 3 } })).toBe(3);
    expect(iterationOf({ ...runAgent, state: 'Advance', input: {} })).toBeUndefined();
  });
});

describe('bench/orchestration: samples', () => {
  const steps = [
    step('InitRun', 1, 0, 5),
    step('RunAgent', 1, 10, 60),
    step('Advance', 1, 61, 81),
    step('RunAgent', 2, 82, 132),
    step('Advance', 2, 134, 144),
  ];

  it('splits the wall time from RunAgent to Advance into runner, handlers and engine', () => {
    const [first, second] = samplesOf(1, steps, [passed(2, 20), passed(1, 10)]);
    expect(first).toEqual({
      run: 1,
      iteration: 1,
      wallMs: 71,
      agentMs: 10,
      gatesMs: 0,
      overheadMs: 61,
      handlersMs: 20,
      runnerMs: 40,
      engineMs: 1,
      betweenMs: 1,
      runnerReportedMs: 30,
      steps: { RunAgent: 50, Advance: 20 },
    });
    expect(second).toMatchObject({ iteration: 2, wallMs: 62, engineMs: 2, betweenMs: undefined });
  });

  it('refuses an iteration whose step ran twice or not at all', () => {
    expect(() => samplesOf(1, [...steps, step('Advance', 1, 90, 91)], [passed(1, 10)])).toThrow(
      'expected one Advance step for iteration 1, saw 2',
    );
    expect(() => samplesOf(1, steps, [passed(3, 10)])).toThrow(
      'expected one RunAgent step for iteration 3, saw 0',
    );
  });
});

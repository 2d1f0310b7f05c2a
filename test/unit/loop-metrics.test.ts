import { describe, expect, it } from 'vitest';
import { computeProgressSignals } from '../../lambdas/core/control/signals/progress-signals.js';
import { iterationMetrics, runMetrics } from '../../lambdas/core/observability/loop-metrics.js';
import type { MetricName } from '../../lambdas/core/schemas/metric-catalogue.js';
import {
  IterationControlSchema,
  type IterationControl,
} from '../../lambdas/core/schemas/control.js';
import { makeIteration, makeRun } from '../support/records.js';

const NOW = '2026-11-27T12:00:00.000Z';

function control(
  level: IterationControl['stagnation']['level'],
  verdict: IterationControl['verdict']['verdict'],
): IterationControl {
  const signals = IterationControlSchema.shape.signals.parse(
    computeProgressSignals({
      iteration: 3,
      taskId: 'US-001',
      previousTaskId: 'US-001',
      outcome: 'gates_failed',
      filesChanged: [],
      taskStartedIteration: 1,
      taskStartedAt: NOW,
      now: NOW,
    }),
  );
  return {
    mode: 'implementer',
    signals,
    verdict: { verdict, rule: 'repeating_error', reason: 'the same error 3 times' },
    stagnation: {
      level,
      count: 6,
      threshold: 5,
      action: 'none',
      diagnostics: { patterns: [], summary: 'no progress for 6 iterations' },
    },
  };
}

const valueOf = (points: ReturnType<typeof iterationMetrics>, name: MetricName) =>
  points.find((point) => point.name === name)?.value;

describe('iterationMetrics', () => {
  it("gives the stagnation level as 0–3, a verdict other than PROCEED as an intervention, and the run's stories", () => {
    // Prepare
    const stuck = makeIteration({ outcome: 'gates_failed', control: control('elevated', 'PAUSE') });
    const healthy = makeIteration({ outcome: 'passed', control: control('none', 'PROCEED') });

    // Act
    const stuckPoints = iterationMetrics(stuck, 1);
    const healthyPoints = iterationMetrics(healthy, 2);

    // Assess
    expect(valueOf(stuckPoints, 'StagnationLevel')).toBe(2);
    expect(valueOf(stuckPoints, 'SupervisorInterventions')).toBe(1);
    expect(valueOf(stuckPoints, 'StoriesComplete')).toBe(1);
    expect(valueOf(healthyPoints, 'StagnationLevel')).toBe(0);
    expect(valueOf(healthyPoints, 'SupervisorInterventions')).toBe(0);
    expect(valueOf(healthyPoints, 'StoriesComplete')).toBe(2);
  });

  it('leaves out what the record lacks: no control, no evaluation, no stories count', () => {
    const points = iterationMetrics(makeIteration({ outcome: 'passed' }));
    const names = points.map((point) => point.name);
    expect(names).not.toContain('StagnationLevel');
    expect(names).not.toContain('JudgeUnreliable');
    expect(names).not.toContain('StoriesComplete');
    expect(names).toContain('IterationsPassed');
  });
});

describe('runMetrics', () => {
  it('gives the mean iterations to pass of tasks given learnings and of control tasks', () => {
    // Prepare
    const run = makeRun({ status: 'completed', iterationsCompleted: 3, storiesPassed: 2 });
    const given = {
      category: 'feature' as const,
      control: false,
      injected: [{ kind: 'rule' as const, id: 'r-1' }],
    };
    const held = { category: 'feature' as const, control: true, injected: [] };
    const iterations = [
      makeIteration({
        iteration: 1,
        status: 'recorded',
        taskId: 'US-001',
        outcome: 'passed',
        learning: given,
      }),
      makeIteration({
        iteration: 2,
        status: 'recorded',
        taskId: 'US-002',
        outcome: 'gates_failed',
        learning: held,
      }),
      makeIteration({
        iteration: 3,
        status: 'recorded',
        taskId: 'US-002',
        outcome: 'passed',
        learning: held,
      }),
    ];

    // Act
    const points = runMetrics(run, iterations);

    // Assess
    expect(points).toContainEqual({ name: 'InjectedIterationsToPass', value: 1 });
    expect(points).toContainEqual({ name: 'ControlIterationsToPass', value: 2 });
  });
});

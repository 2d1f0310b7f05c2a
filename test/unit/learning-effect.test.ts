import { describe, expect, it } from 'vitest';
import { effectReport, taskEffects } from '../../lambdas/core/learning/effect-report.js';
import { makeIteration } from '../support/records.js';

function iteration(
  n: number,
  taskId: string,
  outcome: 'passed' | 'gates_failed',
  side: 'injected' | 'control' | 'nothing',
) {
  return makeIteration({
    iteration: n,
    taskId,
    status: 'recorded',
    outcome,
    learning: {
      category: 'feature',
      control: side === 'control',
      injected: side === 'injected' ? [{ kind: 'rule', id: 'r-1' }] : [],
    },
  });
}

describe('taskEffects', () => {
  it('puts each task on one side and counts the iterations it took to pass', () => {
    const effects = taskEffects('run-1', [
      iteration(1, 'US-001', 'gates_failed', 'nothing'),
      iteration(2, 'US-001', 'passed', 'nothing'),
      iteration(3, 'US-002', 'passed', 'injected'),
      iteration(4, 'US-003', 'gates_failed', 'control'),
      iteration(5, 'US-003', 'passed', 'control'),
      iteration(6, 'US-004', 'gates_failed', 'injected'),
    ]);
    expect(effects).toEqual([
      { runId: 'run-1', taskId: 'US-001', group: 'nothing', passed: true, iterations: 2 },
      { runId: 'run-1', taskId: 'US-002', group: 'injected', passed: true, iterations: 1 },
      { runId: 'run-1', taskId: 'US-003', group: 'control', passed: true, iterations: 2 },
      { runId: 'run-1', taskId: 'US-004', group: 'injected', passed: false, iterations: 1 },
    ]);
  });

  it('ignores what ran after the pass (a review iteration) and unrecorded iterations', () => {
    const effects = taskEffects('r', [
      iteration(1, 'US-001', 'passed', 'injected'),
      iteration(2, 'US-001', 'gates_failed', 'injected'),
      makeIteration({ iteration: 3, taskId: 'US-002', status: 'planned' }),
    ]);
    expect(effects).toEqual([
      { runId: 'r', taskId: 'US-001', group: 'injected', passed: true, iterations: 1 },
    ]);
  });
});

describe('effectReport', () => {
  it('says when the samples are too small to conclude, with their sizes', () => {
    const report = effectReport('run r', [
      { runId: 'r', taskId: 'a', group: 'injected', passed: true, iterations: 1 },
      { runId: 'r', taskId: 'b', group: 'control', passed: true, iterations: 2 },
    ]);
    expect(report.conclusive).toBe(false);
    expect(report.conclusion).toBe(
      'too few tasks to conclude: 1 with injection, 1 control (at least 5 each)',
    );
    expect(report.groups.injected).toEqual({
      tasks: 1,
      passed: 1,
      passRate: 1,
      meanIterationsToPass: 1,
    });
    expect(report.groups.nothing).toEqual({ tasks: 0, passed: 0 });
  });

  it('compares pass rate and iterations to pass once both sides are large enough', () => {
    const side = (group: 'injected' | 'control', iterations: number, passed: boolean) =>
      Array.from({ length: 5 }, (_, index) => ({
        runId: 'r',
        taskId: `${group}-${index}`,
        group,
        passed: passed || index > 0,
        iterations,
      }));
    const report = effectReport('project shop', [
      ...side('injected', 1, true),
      ...side('control', 3, false),
    ]);
    expect(report.conclusive).toBe(true);
    expect(report.conclusion).toBe(
      'with injection: pass rate 100%, 1.00 iterations to pass; control: 80%, 3.00 (5 with injection, 5 control)',
    );
  });
});

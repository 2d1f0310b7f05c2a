import { describe, expect, it } from 'vitest';
import { runStatusText } from '../../bin/cli/render.js';
import { makeIteration, makeRun, makeTask } from '../support/records.js';

describe('Function: runStatusText', () => {
  const run = makeRun({ runId: 'r-1', status: 'running' });
  const tasks = [
    makeTask({ runId: 'r-1', taskId: 'US-001', priority: 1, status: 'complete' }),
    makeTask({ runId: 'r-1', taskId: 'US-002', priority: 2 }),
  ];

  it('shows the story an iteration works on now as running, not as not started', () => {
    // Prepare
    const iterations = [
      makeIteration({ runId: 'r-1', iteration: 1, taskId: 'US-001', status: 'recorded' }),
      makeIteration({ runId: 'r-1', iteration: 2, taskId: 'US-002', status: 'running' }),
    ];

    // Act
    const text = runStatusText(run, tasks, iterations);

    // Assess
    expect(text).toMatch(/US-002 .*running \(iteration 2\)/);
    expect(text).not.toMatch(/US-002 .*not_started/);
  });

  it('shows stored statuses once the run has ended', () => {
    // Prepare
    const iterations = [
      makeIteration({ runId: 'r-1', iteration: 2, taskId: 'US-002', status: 'running' }),
    ];

    // Act
    const text = runStatusText({ ...run, status: 'failed' }, tasks, iterations);

    // Assess
    expect(text).toMatch(/US-002 .*not_started/);
  });

  it('shows what the run cost against its budgets, and nothing of cost when neither is there', () => {
    // Prepare
    const spent = makeRun({ runId: 'r-1', costUsd: 0.1042, config: { limits: { maxCostUsd: 1 } } });

    // Act
    const text = runStatusText(spent, tasks);
    const free = runStatusText(run, tasks);

    // Assess
    expect(text).toMatch(/^cost {7}\$0\.1042 \(limits\.maxCostUsd \$1\.0000\)$/m);
    expect(free).not.toMatch(/^cost /m);
  });
});

import { describe, expect, it } from 'vitest';
import type { DynamoRunStore } from '../../lambdas/adapters/dynamodb/run-store.js';
import { danglingIteration } from '../../lambdas/core/steps/interrupted.js';
import type { LoopDeps } from '../../lambdas/core/steps/deps.js';
import { describeStepError } from '../../lambdas/core/steps/step-error.js';
import { useEmulatorStores } from '../support/emulator-stores.js';
import { makeIteration, makeRun, makeTasks } from '../support/records.js';

let runs: DynamoRunStore;
useEmulatorStores((stores) => ({ runs } = stores));

describe('Function: danglingIteration', () => {
  it('says in words that the run stopped before the open iteration finished', async () => {
    // Prepare: iteration 1 was running when segment 1 ended (its container or process died).
    const run = makeRun({
      runId: 'dangling-1',
      storiesTotal: 1,
      iterationsStarted: 1,
      lastRecordedIteration: 0,
    });
    await runs.createRun(run, makeTasks(run.runId, 1));
    await runs.createIteration(
      makeIteration({ runId: run.runId, iteration: 1, segment: 1, status: 'running' }),
    );

    // Act
    const found = await danglingIteration({ runs } as unknown as LoopDeps, run, 2);

    // Assess
    expect(found?.iteration).toBe(1);
    expect(describeStepError(found!.error!)).toBe(
      'Interrupted: the run stopped before iteration 1 finished (its process, agent task or execution ended during segment 1)',
    );
  });
});

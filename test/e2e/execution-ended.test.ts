import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { Logger } from '@aws-lambda-powertools/logger';
import { describe, expect, it } from 'vitest';
import { makeExecutionEndedHandler } from '../../lambdas/handlers/execution-ended.js';
import { LOCAL_STATE_MACHINE_ARN } from '../../local/run-loop-definition.js';
import { useLocalStack } from '../support/e2e-stack.js';
import { useReposWithPrd } from '../support/repos-with-prd.js';
import { readRun, submitLocalRun, waitUntil } from '../support/local-runs.js';

/** Step Functions' EventBridge event for an execution that ended, as AWS documents it. */
function statusChange(name: string, status: 'FAILED' | 'TIMED_OUT' | 'ABORTED', cause: string) {
  const executionArn = `${LOCAL_STATE_MACHINE_ARN.replace(':stateMachine:', ':execution:')}:${name}`;
  return {
    version: '0',
    id: '315c1398-40ff-a850-213b-158f73e60175',
    'detail-type': 'Step Functions Execution Status Change',
    source: 'aws.states',
    account: '123456789012',
    time: '2026-11-26T21:00:00Z',
    region: 'us-east-1',
    resources: [executionArn],
    detail: {
      executionArn,
      stateMachineArn: LOCAL_STATE_MACHINE_ARN,
      name,
      status,
      startDate: 1764190000000,
      stopDate: 1764190060000,
      input: '{"runId":"x","segment":1}',
      output: null,
      stateMachineVersionArn: null,
      stateMachineAliasArn: null,
      redriveCount: 0,
      redriveDate: null,
      redriveStatus: 'NOT_REDRIVABLE',
      redriveStatusReason: 'Execution is SUCCEEDED and cannot be redriven',
      error: status === 'FAILED' ? 'States.Runtime' : null,
      cause,
      inputDetails: { included: true },
      outputDetails: null,
    },
  };
}

/** The handler's log lines are for CloudWatch, not for the test's output. */
const quiet = new Logger({ serviceName: 'ralph-cloud', logLevel: 'SILENT' });

describe('An execution that ends outside the loop', () => {
  const stack = useLocalStack();
  const repoWithPrd = useReposWithPrd();
  const agent = 'cat > /dev/null; echo started > started.txt; sleep 30';

  it('stopped from outside, leaves its run failed with the cause and the open iteration recorded', async () => {
    // Arrange
    const { repo, prd } = await repoWithPrd(2);
    const runId = await submitLocalRun(stack(), {
      repo,
      prd,
      config: { agent: { command: agent } },
    });
    await waitUntil(async () => existsSync(join(repo, 'started.txt')));

    // Act: what `aws stepfunctions stop-execution` does.
    stack().executions.stop(`${runId}-s1`, 'stopped by an operator');
    await stack().executions.waitForRun(runId);
    const { run, iterations } = await readRun(stack(), runId);

    // Assess
    expect(run.status).toBe('failed');
    expect(run.stopReason).toBe(`execution ${runId}-s1 was stopped: stopped by an operator`);
    expect(iterations.map((it) => it.outcome)).toEqual(['interrupted']);
  });

  it("records EventBridge's event for a failed execution once, and leaves an ended run alone", async () => {
    // Arrange: a run stored as running whose execution is gone.
    const { repo, prd } = await repoWithPrd(1);
    const runId = await submitLocalRun(stack(), {
      repo,
      prd,
      config: { agent: { command: agent } },
    });
    await waitUntil(async () => existsSync(join(repo, 'started.txt')));
    stack().executions.abortAll(); // as a crash would: nothing is reported
    await stack().executions.waitForRun(runId);
    const handler = makeExecutionEndedHandler(() => stack().deps, quiet);
    const event = statusChange(
      `${runId}-s1`,
      'FAILED',
      'The execution reached the maximum number of history events (25000).',
    );

    // Act
    const first = await handler(event);
    const again = await handler(event);
    const { run } = await readRun(stack(), runId);

    // Assess
    expect(first).toMatchObject({ recorded: true });
    expect(run.status).toBe('failed');
    expect(run.stopReason).toMatch(
      /^execution .*-s1 failed: States\.Runtime: The execution reached the maximum number of history events/,
    );
    expect(again).toEqual({ recorded: false, runId, why: 'the run is failed already' });
  });

  it('refuses an event that is not a run-loop status change, naming the field', async () => {
    const handler = makeExecutionEndedHandler(() => stack().deps, quiet);
    await expect(
      handler({ ...statusChange('nope', 'FAILED', ''), source: 'aws.ecs' }),
    ).rejects.toThrow(/source: /);
  });
});

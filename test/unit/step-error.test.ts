import { describe, expect, it } from 'vitest';
import { describeStepError } from '../../lambdas/core/steps/step-error.js';

describe('Function: describeStepError', () => {
  it('reads a Lambda error document as AWS delivers it', () => {
    const Cause = JSON.stringify({
      errorType: 'TransientError',
      errorMessage: 'S3 GetObject timed out',
      trace: ['TransientError: S3 GetObject timed out', '    at x (/var/task/index.mjs:1:1)'],
    });
    expect(describeStepError({ Error: 'TransientError', Cause })).toBe(
      'TransientError: S3 GetObject timed out',
    );
  });

  it('reads the message the local engine delivers', () => {
    expect(describeStepError({ Error: 'NotFoundError', Cause: 'run r1 does not exist' })).toBe(
      'NotFoundError: run r1 does not exist',
    );
    expect(describeStepError({ Error: 'States.Timeout' })).toBe('States.Timeout');
  });

  it('summarises an ECS task description from runTask.sync', () => {
    const Cause = JSON.stringify({
      StoppedReason: 'Essential container in task exited',
      Containers: [{ Name: 'agent', ExitCode: 1, Reason: 'OutOfMemoryError' }],
    });
    expect(describeStepError({ Error: 'States.TaskFailed', Cause })).toBe(
      'States.TaskFailed: the agent task ended (Essential container in task exited; agent exit 1, OutOfMemoryError)',
    );
  });

  it('keeps a long cause bounded', () => {
    expect(describeStepError({ Error: 'E', Cause: 'x'.repeat(5_000) })).toHaveLength(2_000);
  });
});

import type { Context } from 'aws-lambda';
import { Logger } from '@aws-lambda-powertools/logger';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import {
  stepHandler,
  TIMEOUT_EARLY_MS,
  type StepOptions,
} from '../../lambdas/handlers/step-handler.js';

/** A Lambda context with `remainingMs` left before the function times out. */
function contextWith(remainingMs: number): Context {
  const deadline = Date.now() + remainingMs;
  return {
    callbackWaitsForEmptyEventLoop: false,
    functionName: 'ralph-test',
    functionVersion: '$LATEST',
    invokedFunctionArn: 'arn:aws:lambda:local-1:000000000000:function:ralph-test',
    memoryLimitInMB: '128',
    awsRequestId: 'request-1',
    logGroupName: '/aws/lambda/ralph-test',
    logStreamName: 'test',
    getRemainingTimeInMillis: () => deadline - Date.now(),
    done: () => undefined,
    fail: () => undefined,
    succeed: () => undefined,
  };
}

const State = z.object({ runId: z.string().min(1), iteration: z.number().int().optional() });
const logger = new Logger({ serviceName: 'ralph-test', logLevel: 'SILENT' });

describe('Function: stepHandler', () => {
  it('hands the step its ports, the parsed state and the signal', async () => {
    // Prepare
    const seen: { deps: unknown; input: unknown; options?: StepOptions }[] = [];
    const handler = stepHandler(
      State,
      async (deps, input, options) => {
        seen.push({ deps, input, options });
        return { done: input.runId };
      },
      { deps: () => ({ port: 'stores' }), logger },
    );

    // Act
    const output = await handler({ runId: 'run-1', iteration: 2 }, contextWith(60_000));

    // Assess
    expect(output).toEqual({ done: 'run-1' });
    expect(seen[0]?.deps).toEqual({ port: 'stores' });
    expect(seen[0]?.input).toEqual({ runId: 'run-1', iteration: 2 });
    expect(seen[0]?.options?.signal.aborted).toBe(false);
  });

  it('aborts the signal just before the Lambda times out, so a slow call can stop', async () => {
    // Prepare: a step that waits on its signal, in a Lambda with 1.3 s left: told at 1 s
    // left, which a busy machine can delay but not by a second.
    const context = contextWith(TIMEOUT_EARLY_MS + 300);
    let remainingAtAbort: number | undefined;
    const handler = stepHandler(
      State,
      (_deps, _input, { signal }) =>
        new Promise<string>((_resolve, reject) =>
          signal.addEventListener(
            'abort',
            () => {
              remainingAtAbort = context.getRemainingTimeInMillis();
              reject(signal.reason as Error);
            },
            { once: true },
          ),
        ),
      { deps: () => ({}), logger },
    );

    // Act
    const call = handler({ runId: 'run-1' }, context);

    // Assess: the step was told well before the deadline, and the handler fails with a name.
    await expect(call).rejects.toMatchObject({ name: 'TimeoutError' });
    expect(remainingAtAbort).toBeLessThanOrEqual(TIMEOUT_EARLY_MS);
    expect(remainingAtAbort).toBeGreaterThan(TIMEOUT_EARLY_MS / 2);
  });

  it('refuses a state that does not match its schema, naming the path', async () => {
    // Prepare
    const handler = stepHandler(State, async () => 'ran', { deps: () => ({}), logger });

    // Act
    const call = handler({ runId: '', iteration: 'two' }, contextWith(60_000));

    // Assess
    await expect(call).rejects.toMatchObject({
      name: 'InvalidInputError',
      issues: [
        'runId: Too small: expected string to have >=1 characters',
        'iteration: expected number, received string',
      ],
    });
  });
});

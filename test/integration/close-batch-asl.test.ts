/**
 * The batch closer's definition (statemachines/close-batch.asl.json) run on the local
 * Step Functions engine: it waits until the batch's `closesAt`, then hands the close
 * function exactly the batch's key, and retries it when the store is out of reach.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import validator from 'asl-validator';
import { StateMachine, type StateMachineDefinition } from 'aws-local-stepfunctions';
import { describe, expect, it } from 'vitest';
import { STATE_MACHINES_DIR } from '../../lib/paths.js';

const text = readFileSync(join(STATE_MACHINES_DIR, 'close-batch.asl.json'), 'utf8');
const definition = JSON.parse(
  text.replace('${CloseBatchFunctionArn}', 'arn:aws:lambda:local-1:000000000000:function:close'),
) as StateMachineDefinition;

describe('State machine: close-batch.asl.json', () => {
  it('is valid Amazon States Language', () => {
    const result = validator(definition);
    expect(result.errors).toEqual([]);
  });

  it("closes the batch once its window has passed, with the batch's key only", async () => {
    const calls: { input: unknown; at: number }[] = [];
    const machine = new StateMachine(definition);
    const started = Date.now();
    const closesAt = new Date(started + 1500).toISOString();
    const execution = machine.run(
      { projectId: 'shop', batchId: 'b00000001', closesAt, extra: 'not passed on' },
      {
        overrides: {
          taskResourceLocalHandlers: {
            CloseBatch: async (input) => {
              calls.push({ input, at: Date.now() });
              return { runId: 'r1' };
            },
          },
        },
      },
    );
    expect(await execution.result).toEqual({ runId: 'r1' });
    expect(calls).toHaveLength(1);
    expect(calls[0]!.input).toEqual({ projectId: 'shop', batchId: 'b00000001' });
    expect(calls[0]!.at).toBeGreaterThanOrEqual(Date.parse(closesAt) - 50);
  });

  it('retries a close that failed transiently', async () => {
    let attempts = 0;
    const machine = new StateMachine(definition);
    const execution = machine.run(
      { projectId: 'shop', batchId: 'b00000002', closesAt: new Date().toISOString() },
      {
        overrides: {
          taskResourceLocalHandlers: {
            CloseBatch: async () => {
              attempts += 1;
              if (attempts < 3)
                throw Object.assign(new Error('store out of reach'), { name: 'TransientError' });
              return { runId: 'r2' };
            },
          },
          retryIntervalOverrides: { CloseBatch: 0 },
        },
      },
    );
    expect(await execution.result).toEqual({ runId: 'r2' });
    expect(attempts).toBe(3);
  });
});

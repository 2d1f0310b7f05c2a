import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import {
  blockingGatesPassed,
  describeGateFailures,
  OUTPUT_TAIL_LINES,
  runGates,
} from '../../agent/checks/gates.js';
import { ChildProcessSpawner } from '../../agent/process/child-process-spawner.js';
import { GateSchema, type Gate } from '../../lambdas/core/schemas/config.js';

const spawner = new ChildProcessSpawner();
let dir: string;

beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'ralph-gates-'));
});

afterEach(async () => {
  await rm(dir, { recursive: true, force: true });
});

function gate(fields: Partial<Gate> & { name: string; command: string }): Gate {
  return GateSchema.parse(fields);
}

describe('Function: runGates', () => {
  it('runs every gate in order in the working directory and reports each', async () => {
    // Prepare
    const gates = [
      gate({ name: 'first', command: 'echo first >> order.txt; echo "out"; echo "err" >&2' }),
      gate({ name: 'ci', command: 'echo ci >> order.txt; test "$CI" = true' }),
    ];

    // Act
    const runs = await runGates(gates, dir, { spawner });

    // Assess
    expect(await readFile(join(dir, 'order.txt'), 'utf8')).toBe('first\nci\n');
    expect(runs.map(({ result }) => result)).toEqual([
      expect.objectContaining({
        name: 'first',
        blocking: true,
        passed: true,
        exitCode: 0,
        timedOut: false,
      }),
      expect.objectContaining({ name: 'ci', passed: true, exitCode: 0 }),
    ]);
    expect(runs[0]?.output).toBe('out\nerr\n');
    expect(runs[0]?.command).toContain('order.txt');
    expect(blockingGatesPassed(runs.map(({ result }) => result))).toBe(true);
  });

  it('goes on after a failure, and only blocking failures block', async () => {
    // Prepare
    const gates = [
      gate({ name: 'lint', command: 'echo "lint warning"; exit 1', blocking: false }),
      gate({ name: 'test', command: 'echo "1 test failed"; exit 2' }),
      gate({ name: 'after', command: 'true' }),
    ];

    // Act
    const results = (await runGates(gates, dir, { spawner })).map(({ result }) => result);

    // Assess
    expect(results.map(({ name, passed, exitCode }) => [name, passed, exitCode])).toEqual([
      ['lint', false, 1],
      ['test', false, 2],
      ['after', true, 0],
    ]);
    expect(blockingGatesPassed(results)).toBe(false);
    expect(blockingGatesPassed(results.filter(({ name }) => name !== 'test'))).toBe(true);
    expect(describeGateFailures(results)).toBe('gate test failed (exit 2):\n1 test failed');
  });

  it('fails a gate that hangs past its timeout, and runs the next one', async () => {
    // Prepare
    const gates = [
      gate({ name: 'hang', command: 'echo started; sleep 100 & sleep 100', timeoutSeconds: 1 }),
      gate({ name: 'next', command: 'echo next' }),
    ];

    // Act
    const results = (await runGates(gates, dir, { spawner, killGraceMs: 200 })).map(
      ({ result }) => result,
    );

    // Assess
    expect(results[0]).toMatchObject({
      name: 'hang',
      passed: false,
      timedOut: true,
      exitCode: null,
    });
    expect(results[0]?.durationMs).toBeLessThan(2_500);
    expect(results[0]?.outputTail).toBe('started');
    expect(results[1]).toMatchObject({ name: 'next', passed: true });
    expect(describeGateFailures(results)).toBe('gate hang failed (timed out after 1s):\nstarted');
  });

  it(`keeps the last ${OUTPUT_TAIL_LINES} lines on the result and the whole output beside it`, async () => {
    // Prepare
    const gates = [gate({ name: 'noisy', command: 'seq 1 100; exit 1' })];

    // Act
    const [run] = await runGates(gates, dir, { spawner });

    // Assess
    const tail = run?.result.outputTail.split('\n') ?? [];
    expect(tail).toHaveLength(OUTPUT_TAIL_LINES);
    expect(tail[0]).toBe('41');
    expect(tail.at(-1)).toBe('100');
    expect(run?.output.split('\n').filter((line) => line !== '')).toHaveLength(100);
  });

  it('stops the running gate and skips the rest when aborted', async () => {
    // Prepare
    const controller = new AbortController();
    const gates = [
      gate({ name: 'slow', command: 'sleep 100' }),
      gate({ name: 'skipped', command: 'touch ran' }),
    ];
    setTimeout(() => controller.abort(), 200);

    // Act
    const results = (await runGates(gates, dir, { spawner, signal: controller.signal })).map(
      ({ result }) => result,
    );

    // Assess
    expect(results).toHaveLength(1);
    expect(results[0]).toMatchObject({ name: 'slow', passed: false, timedOut: false });
    await expect(readFile(join(dir, 'ran'))).rejects.toThrow();
  });

  it('reports a gate that cannot start as failed with the reason as output', async () => {
    // Act
    const [run] = await runGates([gate({ name: 'gone', command: 'true' })], join(dir, 'missing'), {
      spawner,
    });

    // Assess
    expect(run?.result).toMatchObject({ passed: false, exitCode: null });
    expect(run?.output).toContain('missing');
  });
});

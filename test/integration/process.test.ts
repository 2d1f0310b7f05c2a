import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { isGroupRunning, runCommand, type RunCommandOptions } from '../../agent/process/process.js';
import type { Spawner } from '../../agent/process/spawner.js';
import { isProcessRunning, SPAWNERS, type TestSpawner } from '../support/spawners.js';

let dir: string;

async function pidsIn(file: string): Promise<number[]> {
  const text = await readFile(join(dir, file), 'utf8');
  return text
    .split(/\s+/)
    .filter((pid) => pid !== '')
    .map(Number);
}

describe.each(SPAWNERS)('Function: runCommand (through %s)', (_name, makeSpawner) => {
  let made: TestSpawner;
  let spawner: Spawner;
  const command = (options: Omit<RunCommandOptions, 'spawner'>) =>
    runCommand({ spawner, ...options });

  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'ralph-process-'));
    made = makeSpawner();
    spawner = made.spawner;
  });

  afterAll(async () => {
    made.close();
    await rm(dir, { recursive: true, force: true });
  });

  it('reports exit codes, stdout and stderr, and feeds stdin', async () => {
    // Act
    const ok = await command({
      command: 'cat; echo "to stderr" >&2; echo "$GREETING"',
      cwd: dir,
      stdin: 'from stdin\n',
      env: { GREETING: 'hello' },
      timeoutMs: 10_000,
    });
    const failed = await command({ command: 'exit 3', cwd: dir, timeoutMs: 10_000 });

    // Assess
    expect(ok).toMatchObject({
      exitCode: 0,
      signal: null,
      timedOut: false,
      aborted: false,
      stdout: 'from stdin\nhello\n',
      stderr: 'to stderr\n',
      outputTruncated: false,
    });
    expect(ok.spawnError).toBeUndefined();
    expect(failed.exitCode).toBe(3);
  });

  it('streams output in arrival order to onOutput', async () => {
    // Prepare
    const chunks: string[] = [];

    // Act
    await command({
      command: 'echo one; sleep 0.05; echo two >&2; sleep 0.05; echo three',
      cwd: dir,
      timeoutMs: 10_000,
      onOutput: (stream, text) => chunks.push(`${stream}:${text}`),
    });

    // Assess
    expect(chunks).toEqual(['stdout:one\n', 'stderr:two\n', 'stdout:three\n']);
  });

  it('kills the whole process group on timeout, grandchildren included', async () => {
    // Act
    const result = await command({
      command: `sleep 100 & echo $! >> timeout.pids; sh -c 'sleep 100 & echo $! >> timeout.pids; wait' & wait`,
      cwd: dir,
      timeoutMs: 300,
    });

    // Assess
    expect(result.timedOut).toBe(true);
    expect(result.exitCode).toBeNull();
    expect(result.signal).toBe('SIGTERM');
    expect(result.durationMs).toBeLessThan(3_000);
    const pids = await pidsIn('timeout.pids');
    expect(pids).toHaveLength(2);
    for (const pid of pids) expect(await isProcessRunning(pid)).toBe(false);
    expect(await isGroupRunning(result.pid ?? 0)).toBe(false);
  });

  it('sends SIGKILL after the grace period to processes that ignore SIGTERM', async () => {
    // Act
    const result = await command({
      command: `trap '' TERM; sleep 100 & echo $! > stubborn.pids; sleep 100`,
      cwd: dir,
      timeoutMs: 200,
      killGraceMs: 300,
    });

    // Assess
    expect(result.timedOut).toBe(true);
    expect(result.signal).toBe('SIGKILL');
    const [pid] = await pidsIn('stubborn.pids');
    expect(await isProcessRunning(pid ?? 0)).toBe(false);
  });

  it('kills the group when the signal aborts, and does not start when already aborted', async () => {
    // Prepare
    const controller = new AbortController();
    setTimeout(() => controller.abort(), 200);

    // Act
    const result = await command({
      command: 'sleep 100 & echo $! > abort.pids; sleep 100',
      cwd: dir,
      timeoutMs: 60_000,
      signal: controller.signal,
    });
    const never = await command({
      command: 'touch started',
      cwd: dir,
      timeoutMs: 60_000,
      signal: controller.signal,
    });

    // Assess
    expect(result).toMatchObject({ aborted: true, timedOut: false, exitCode: null });
    const [pid] = await pidsIn('abort.pids');
    expect(await isProcessRunning(pid ?? 0)).toBe(false);
    expect(never).toMatchObject({ aborted: true, exitCode: null });
    expect(never.pid).toBeUndefined();
    await expect(readFile(join(dir, 'started'))).rejects.toThrow();
  });

  it('ends background processes the command leaves behind, without waiting for them', async () => {
    // Act
    const result = await command({
      command: 'sleep 100 & echo $! > leftover.pids; echo done',
      cwd: dir,
      timeoutMs: 10_000,
    });

    // Assess
    expect(result).toMatchObject({ exitCode: 0, timedOut: false, stdout: 'done\n' });
    expect(result.durationMs).toBeLessThan(3_000);
    const [pid] = await pidsIn('leftover.pids');
    expect(await isProcessRunning(pid ?? 0)).toBe(false);
  });

  it('reports a command killed by a signal it did not get from us', async () => {
    // Act
    const result = await command({ command: 'kill -KILL $$', cwd: dir, timeoutMs: 10_000 });

    // Assess
    expect(result).toMatchObject({
      exitCode: null,
      signal: 'SIGKILL',
      timedOut: false,
      aborted: false,
    });
  });

  it('reports a command that cannot start', async () => {
    // Act
    const result = await command({
      command: 'true',
      cwd: join(dir, 'missing'),
      timeoutMs: 10_000,
    });

    // Assess
    expect(result.exitCode).toBeNull();
    expect(result.spawnError).toContain('missing');
  });

  it('keeps only the tail of a large output in memory, and streams all of it', async () => {
    // Prepare
    let streamed = 0;

    // Act
    const result = await command({
      command: `head -c 3000000 /dev/zero | tr '\\0' a; echo END`,
      cwd: dir,
      timeoutMs: 10_000,
      maxOutputChars: 1_000,
      onOutput: (_stream, text) => {
        streamed += text.length;
      },
    });

    // Assess
    expect(result.exitCode).toBe(0);
    expect(result.outputTruncated).toBe(true);
    expect(result.stdout).toHaveLength(1_000);
    expect(result.stdout.endsWith('aaaEND\n')).toBe(true);
    expect(streamed).toBe(3_000_004);
  });

  it("does not pass the runner's credentials on, but passes what it is given", async () => {
    // Prepare
    const saved = { secret: process.env.AWS_SECRET_ACCESS_KEY, token: process.env.GIT_TOKEN };
    process.env.AWS_SECRET_ACCESS_KEY = 'runner-secret';
    process.env.GIT_TOKEN = 'runner-token';

    // Act
    let result: Awaited<ReturnType<typeof runCommand>>;
    try {
      result = await command({
        command: 'env',
        cwd: dir,
        env: { AWS_REGION: 'given', HOME: undefined },
        timeoutMs: 10_000,
      });
    } finally {
      for (const [name, value] of [
        ['AWS_SECRET_ACCESS_KEY', saved.secret],
        ['GIT_TOKEN', saved.token],
      ] as const) {
        if (value === undefined) delete process.env[name];
        else process.env[name] = value;
      }
    }

    // Assess
    const names = result.stdout.split('\n').map((line) => line.split('=')[0]);
    expect(names).not.toContain('AWS_SECRET_ACCESS_KEY');
    expect(names).not.toContain('GIT_TOKEN');
    expect(names).not.toContain('HOME');
    expect(names).toContain('PATH');
    expect(result.stdout).toContain('AWS_REGION=given\n');
  });
});

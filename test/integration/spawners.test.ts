import { randomBytes } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Spawner } from '../../agent/process/spawner.js';
import { shell, SPAWNERS, useTempDirs, type TestSpawner } from '../support/spawners.js';

const tempDir = useTempDirs();

describe.each(SPAWNERS)('Interface: Spawner (%s)', (_name, makeSpawner) => {
  let made: TestSpawner;
  let spawner: Spawner;

  beforeAll(() => {
    made = makeSpawner();
    spawner = made.spawner;
  });

  afterAll(() => made.close());

  it('passes stdout and stderr as exact bytes', async () => {
    // Prepare
    const dir = await tempDir();
    const bytes = randomBytes(3 * 1024 * 1024 + 17);
    await writeFile(join(dir, 'data.bin'), bytes);

    // Act
    const result = await spawner.run(
      shell('cat data.bin; printf "warn\\n" >&2; exit 3', { cwd: dir }),
    );

    // Assess
    expect(result.exitCode).toBe(3);
    expect(result.stderr.toString()).toBe('warn\n');
    expect(Buffer.compare(result.stdout, bytes)).toBe(0);
  });

  it('feeds stdin and answers many requests in flight, each with its own reply', async () => {
    // Prepare

    // Act
    const results = await Promise.all(
      Array.from({ length: 20 }, (_, index) =>
        spawner.run(shell(`sleep 0.0${index % 5}; cat; echo " ${index}"`, { input: `in${index}` })),
      ),
    );

    // Assess
    expect(results.map((result) => result.stdout.toString().trim())).toEqual(
      Array.from({ length: 20 }, (_, index) => `in${index} ${index}`),
    );
  });

  it('ends a command past its timeout with SIGTERM, then SIGKILL when it ignores it', async () => {
    // Prepare

    // Act
    const polite = await spawner.run(shell('exec sleep 10', { timeoutMs: 100 }));
    const stubborn = await spawner.run(
      // An ignored signal stays ignored across exec.
      shell("trap '' TERM; exec sleep 10", { timeoutMs: 100, killGraceMs: 200 }),
    );

    // Assess
    expect(polite).toMatchObject({ problem: 'timed out after 100 ms', signal: 'SIGTERM' });
    expect(stubborn).toMatchObject({ problem: 'timed out after 100 ms', signal: 'SIGKILL' });
  });

  it('stops a command whose output passes the limit', async () => {
    // Act
    const result = await spawner.run(
      shell('head -c 100000 /dev/zero; exec sleep 10', { maxOutputBytes: 1000 }),
    );

    // Assess
    expect(result.problem).toBe('output exceeded 1000 bytes');
    expect(result.stdout.length).toBeLessThanOrEqual(1000);
  });

  it('says why a command could not start', async () => {
    // Act
    const result = await spawner.run({ ...shell(''), file: 'no-such-program-ralph' });

    // Assess
    expect(result.exitCode).toBeNull();
    expect(result.startError).toContain('ENOENT');
  });

  it('streams a command in a group of its own: its pid, its output as it comes, its exit, its close', async () => {
    // Prepare
    const seen: string[] = [];
    let pid: number | undefined;
    let groupOf: number | undefined;

    // Act: the leader exits while an orphan holds its output open for a moment.
    const closed = await spawner.stream(
      {
        file: 'sh',
        args: ['-c', 'cat; echo err >&2; sleep 0.2; (sleep 0.3; echo orphan) & exit 3'],
        cwd: tmpdir(),
        env: { PATH: process.env.PATH ?? '/usr/bin:/bin' },
        input: 'prompt\n',
      },
      {
        onStarted: (started) => {
          pid = started;
          // `pid (comm) state ppid pgrp ...`, read while it runs (it reads its stdin).
          const stat = readFileSync(`/proc/${started}/stat`, 'utf8');
          groupOf = Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[2]);
          seen.push('started');
        },
        onData: (stream, chunk) => seen.push(`${stream}:${chunk.toString().trim()}`),
        onExited: (exitCode) => seen.push(`exited:${exitCode}`),
      },
    );

    // Assess
    expect(closed).toEqual({ exitCode: 3, signal: null });
    expect(seen[0]).toBe('started');
    expect(seen).toContain('stdout:prompt');
    expect(seen).toContain('stderr:err');
    expect(seen.indexOf('exited:3')).toBeLessThan(seen.indexOf('stdout:orphan'));
    // The leader of a group of its own: its pid is its group's id.
    expect(pid).toBeGreaterThan(0);
    expect(groupOf).toBe(pid);
  });

  it('says why a streamed command could not start, naming the directory', async () => {
    const closed = await spawner.stream({
      file: 'sh',
      args: ['-c', 'true'],
      cwd: join(tmpdir(), 'no-such-dir-ralph'),
      env: { PATH: process.env.PATH ?? '/usr/bin:/bin' },
    });
    expect(closed.exitCode).toBeNull();
    expect(closed.startError).toContain('no-such-dir-ralph');
  });
});

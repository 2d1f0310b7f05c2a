import { randomBytes } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { SpawnServer, SpawnServerError, type RunRequest } from '../../agent/spawn-client.js';

const servers: SpawnServer[] = [];
const temporary: string[] = [];

afterEach(async () => {
  for (const server of servers.splice(0)) server.close();
  await Promise.all(temporary.splice(0).map((dir) => rm(dir, { recursive: true, force: true })));
});

function server(script?: string): SpawnServer {
  const made = new SpawnServer(script);
  servers.push(made);
  return made;
}

async function tempDir(): Promise<string> {
  const dir = await mkdtemp(join(tmpdir(), 'ralph-spawn-'));
  temporary.push(dir);
  return dir;
}

function shell(script: string, extra: Partial<RunRequest> = {}): RunRequest {
  return {
    file: 'sh',
    args: ['-c', script],
    cwd: tmpdir(),
    env: { PATH: process.env.PATH ?? '/usr/bin:/bin' },
    timeoutMs: 10_000,
    killGraceMs: 1_000,
    maxOutputBytes: 64 * 1024 * 1024,
    ...extra,
  };
}

function isRunning(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

async function waitFor<T>(probe: () => Promise<T | undefined> | T | undefined): Promise<T> {
  for (let i = 0; i < 200; i += 1) {
    const value = await probe();
    if (value !== undefined) return value;
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
  throw new Error('timed out waiting');
}

describe('Class: SpawnServer', () => {
  it('runs commands in a separate process and passes stdout and stderr as exact bytes', async () => {
    // Prepare
    const spawner = server();
    const dir = await tempDir();
    const bytes = randomBytes(3 * 1024 * 1024 + 17);
    await writeFile(join(dir, 'data.bin'), bytes);

    // Act
    const result = await spawner.run(
      shell('cat data.bin; printf "warn\\n" >&2; exit 3', { cwd: dir }),
    );

    // Assess
    expect(spawner.serverPid).toBeGreaterThan(0);
    expect(spawner.serverPid).not.toBe(process.pid);
    expect(result.exitCode).toBe(3);
    expect(result.stderr.toString()).toBe('warn\n');
    expect(Buffer.compare(result.stdout, bytes)).toBe(0);
  });

  it('feeds stdin and answers many requests in flight, each with its own reply', async () => {
    // Prepare
    const spawner = server();

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
    const spawner = server();

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
    const result = await server().run(
      shell('head -c 100000 /dev/zero; exec sleep 10', { maxOutputBytes: 1000 }),
    );

    // Assess
    expect(result.problem).toBe('output exceeded 1000 bytes');
    expect(result.stdout.length).toBeLessThanOrEqual(1000);
  });

  it('says why a command could not start', async () => {
    // Act
    const result = await server().run({ ...shell(''), file: 'no-such-program-ralph' });

    // Assess
    expect(result.exitCode).toBeNull();
    expect(result.startError).toContain('ENOENT');
  });

  it('fails the requests in flight when the server dies, and starts a new one for the next', async () => {
    // Prepare
    const spawner = server();
    const first = await spawner.run(shell('echo up'));
    const pid = spawner.serverPid ?? 0;
    const inFlight = spawner.run(shell('sleep 10'));

    // Act
    process.kill(pid, 'SIGKILL');

    // Assess
    expect(first.stdout.toString()).toBe('up\n');
    await expect(inFlight).rejects.toBeInstanceOf(SpawnServerError);
    const again = await spawner.run(shell('echo again'));
    expect(again.stdout.toString()).toBe('again\n');
    expect(spawner.serverPid).not.toBe(pid);
  });

  it('ends what it still runs when its stdin closes (the process that started it went away)', async () => {
    // Prepare
    const spawner = server();
    const dir = await tempDir();
    const running = spawner.run(shell('echo $$ > pid; exec sleep 30', { cwd: dir }));
    const pid = await waitFor(async () => {
      const text = await readFile(join(dir, 'pid'), 'utf8').catch(() => '');
      return text.trim() === '' ? undefined : Number(text);
    });

    // Act
    spawner.close();

    // Assess
    await expect(running).rejects.toBeInstanceOf(SpawnServerError);
    await waitFor(() => (isRunning(pid) ? undefined : true));
  });

  it('runs commands in this process when the server script is missing', async () => {
    // Prepare
    const spawner = server(join(tmpdir(), 'no-such-spawn-server.mjs'));

    // Act
    const result = await spawner.run(shell('echo $PPID'));

    // Assess
    expect(spawner.usesServer).toBe(false);
    expect(Number(result.stdout.toString())).toBe(process.pid);
  });

  it('gives up on a server that dies before it ever answers, and runs commands here', async () => {
    // Prepare
    const dir = await tempDir();
    const script = join(dir, 'broken-server.mjs');
    await writeFile(script, 'process.exit(1);\n');
    const spawner = server(script);

    // Act
    const first = spawner.run(shell('echo lost'));
    await expect(first).rejects.toBeInstanceOf(SpawnServerError);
    const second = await spawner.run(shell('echo $PPID'));

    // Assess
    expect(spawner.usesServer).toBe(false);
    expect(Number(second.stdout.toString())).toBe(process.pid);
  });

  it('streams a command in a group of its own: its pid, its output as it comes, its exit, its close', async () => {
    // Prepare
    const spawner = server();
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
    const closed = await server().stream({
      file: 'sh',
      args: ['-c', 'true'],
      cwd: join(tmpdir(), 'no-such-dir-ralph'),
      env: { PATH: process.env.PATH ?? '/usr/bin:/bin' },
    });
    expect(closed.exitCode).toBeNull();
    expect(closed.startError).toContain('no-such-dir-ralph');
  });

  it('streams in this process too when the server script is missing', async () => {
    const spawner = server(join(tmpdir(), 'no-such-spawn-server.mjs'));
    const out: string[] = [];
    const closed = await spawner.stream(
      {
        file: 'sh',
        args: ['-c', 'echo $PPID'],
        cwd: tmpdir(),
        env: { PATH: process.env.PATH ?? '/usr/bin:/bin' },
      },
      { onData: (_stream, chunk) => out.push(chunk.toString()) },
    );
    expect(closed.exitCode).toBe(0);
    expect(Number(out.join(''))).toBe(process.pid);
  });
});

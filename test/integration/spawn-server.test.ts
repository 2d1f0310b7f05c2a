import { readFile, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { SpawnServer, SpawnServerError } from '../../local/spawn-server/spawn-server.js';
import { shell, useTempDirs } from '../support/spawners.js';

const servers: SpawnServer[] = [];

afterEach(() => {
  for (const server of servers.splice(0)) server.close();
});

function server(script?: string): SpawnServer {
  const made = new SpawnServer(script);
  servers.push(made);
  return made;
}

const tempDir = useTempDirs();

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
  it('runs commands in a process of its own, whose child they are', async () => {
    // Prepare
    const spawner = server();

    // Act
    const result = await spawner.run(shell('echo $PPID'));

    // Assess
    expect(spawner.usesServer).toBe(true);
    expect(spawner.serverPid).toBeGreaterThan(0);
    expect(spawner.serverPid).not.toBe(process.pid);
    expect(Number(result.stdout.toString())).toBe(spawner.serverPid);
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

import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { execa } from 'execa';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { moduleEntry } from '../../local/module-entry.js';

/** A caller beside the fixture, as its own import.meta.url would say. */
const CALLER = pathToFileURL(join(import.meta.dirname, '../fixtures/module-entry/caller.ts')).href;

describe('moduleEntry', () => {
  let elsewhere: string;

  beforeAll(async () => {
    elsewhere = await mkdtemp(join(tmpdir(), 'ralph-module-entry-'));
  });

  afterAll(async () => {
    await rm(elsewhere, { recursive: true, force: true });
  });

  it('from a compiled caller, is the compiled .js (.mjs) beside it, run without a loader', () => {
    // Act
    const entry = moduleEntry('./store/daemon.ts', 'file:///opt/ralph/dist/local/caller.js');
    const script = moduleEntry(
      '../spawn/server-main.mjs',
      'file:///opt/ralph/dist/local/caller.js',
    );

    // Assess
    expect(entry).toMatchObject({
      path: '/opt/ralph/dist/local/store/daemon.js',
      fromSource: false,
    });
    expect(entry.nodeArguments('--flag')).toEqual([
      '/opt/ralph/dist/local/store/daemon.js',
      '--flag',
    ]);
    expect(moduleEntry('./x.mts', 'file:///d/caller.js').path).toBe('/d/x.mjs');
    expect(script.path).toBe('/opt/ralph/dist/spawn/server-main.mjs');
  });

  it('from source, runs the TypeScript in a child process started in another directory', async () => {
    // Prepare
    const entry = moduleEntry('./typed-entry.ts', CALLER);

    // Act
    const child = await execa(process.execPath, entry.nodeArguments('a', 'b'), {
      cwd: elsewhere,
      extendEnv: false,
      env: { PATH: process.env.PATH },
    });

    // Assess
    expect(entry.fromSource).toBe(true);
    expect(child.stdout).toBe('ran a b');
  });

  it('from source, runs the TypeScript on a worker thread, whatever the working directory', async () => {
    // Prepare
    const cwd = process.cwd();
    process.chdir(elsewhere);

    // Act
    const worker = moduleEntry('./typed-entry.ts', CALLER).startWorker();
    const message = await new Promise((resolve, reject) => {
      worker.once('message', resolve);
      worker.once('error', reject);
    }).finally(() => process.chdir(cwd));
    await worker.terminate();

    // Assess
    expect(message).toBe('ran');
  });
});

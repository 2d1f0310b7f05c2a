import { spawn } from 'node:child_process';
import {
  lstat,
  mkdir,
  mkdtemp,
  readFile,
  rm,
  stat,
  symlink,
  writeFile,
  chmod,
} from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ChildProcessSpawner } from '../../agent/process/child-process-spawner.js';
import { ConfinedSpawner } from '../../agent/process/confined-spawner.js';
import { isProcessRunning } from '../support/spawners.js';

/**
 * A uid and gid of this file's own, in no /etc/passwd: the sweep below kills every process
 * of its user, which must not reach another test file's (the e2e runs as `nobody`).
 */
const NOBODY = { name: 'ralph-test-agent', uid: 64_913, gid: 64_913, home: '/nonexistent' };
const request = (cwd: string, file: string, args: string[], env: Record<string, string> = {}) => ({
  file,
  args,
  cwd,
  env: { PATH: process.env.PATH ?? '/usr/bin:/bin', ...env },
  timeoutMs: 10_000,
  killGraceMs: 500,
  maxOutputBytes: 1024 * 1024,
});

/** Switching users needs root: the CI machine's tests run as root. */
describe.skipIf(process.getuid?.() !== 0)('Class: ConfinedSpawner', () => {
  let scratch: string;
  const spawner = new ConfinedSpawner(new ChildProcessSpawner(), NOBODY);

  beforeAll(async () => {
    scratch = await mkdtemp(join(tmpdir(), 'ralph-confined-spawner-'));
    await chmod(scratch, 0o755);
  });
  afterAll(() => rm(scratch, { recursive: true, force: true }));

  it('runs a command as the user, with its home, and no supplementary groups', async () => {
    // Prepare
    const dir = join(scratch, 'ids');
    await mkdir(dir);

    // Act
    const result = await spawner.run(
      request(dir, 'sh', ['-c', 'id -u; id -G; echo "$HOME $USER"']),
    );

    // Assess
    expect(result.stdout.toString().split('\n')).toEqual([
      '64913',
      '64913',
      '/nonexistent ralph-test-agent',
      '',
    ]);
    expect((await stat(dir)).uid).toBe(NOBODY.uid);
  });

  it('hands the working copy over before a long command, links themselves and not their targets', async () => {
    // Prepare: what the runner (root) wrote, and a link the agent planted to a root file.
    const dir = join(scratch, 'copy');
    await mkdir(join(dir, 'scripts/ralph'), { recursive: true });
    await writeFile(join(dir, 'scripts/ralph/progress.txt'), '# progress\n');
    const outside = join(scratch, 'root-only.txt');
    await writeFile(outside, 'root\n', { mode: 0o600 });
    await symlink(outside, join(dir, 'link'));

    // Act
    const closed = await spawner.stream(
      request(dir, 'sh', ['-c', 'echo "appended" >> scripts/ralph/progress.txt; cat link']),
    );

    // Assess
    expect(closed.exitCode).not.toBe(0);
    expect(await readFile(join(dir, 'scripts/ralph/progress.txt'), 'utf8')).toBe(
      '# progress\nappended\n',
    );
    expect((await lstat(join(dir, 'link'))).uid).toBe(NOBODY.uid);
    expect((await stat(outside)).uid).toBe(0);
  });

  it("ends every process of the user's before a command that carries the git token", async () => {
    // Prepare: something the agent left running, out of its process group.
    const dir = join(scratch, 'push');
    await mkdir(dir);
    const straggler = spawn('sleep', ['300'], {
      uid: NOBODY.uid,
      gid: NOBODY.gid,
      detached: true,
      stdio: 'ignore',
    });
    straggler.unref();
    const pid = straggler.pid ?? 0;
    expect(await isProcessRunning(pid)).toBe(true);

    // Act
    const result = await spawner.run(
      request(dir, 'true', [], { GIT_CONFIG_COUNT: '1', GIT_CONFIG_KEY_0: 'http.extraHeader' }),
    );

    // Assess
    expect(result.exitCode).toBe(0);
    await expect.poll(() => isProcessRunning(pid)).toBe(false);
  });
});

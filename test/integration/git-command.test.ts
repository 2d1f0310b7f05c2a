import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { access, chmod, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { checkoutBranch } from '../../agent/git/branches.js';
import { GitError } from '../../agent/git/command.js';
import { commit } from '../../agent/git/commits.js';
import { clone } from '../../agent/git/remote.js';
import { addAll } from '../../agent/git/staging.js';
import { statusPorcelain } from '../../agent/git/status.js';
import { at, spawner, useScratch } from '../support/git-scratch.js';

const { repo, tempDir } = useScratch();

describe('Module: git/command', () => {
  it('runs no hook or fsmonitor command the repository configures', async () => {
    // Prepare: what an agent could plant for the runner's next git command.
    const path = await repo();
    const out = await tempDir();
    const hook = `#!/bin/sh\nenv > "${out}/$(basename "$0").env"\n`;
    for (const name of ['post-commit', 'post-checkout', 'reference-transaction']) {
      await writeFile(join(path, '.git', 'hooks', name), hook);
      await chmod(join(path, '.git', 'hooks', name), 0o755);
    }
    await writeFile(join(out, 'fsmonitor.sh'), `#!/bin/sh\nenv > "${out}/fsmonitor.env"\n`);
    await chmod(join(out, 'fsmonitor.sh'), 0o755);
    await writeFile(
      join(path, '.git', 'config'),
      `${await readFile(join(path, '.git', 'config'), 'utf8')}[core]\n\tfsmonitor = ${out}/fsmonitor.sh\n`,
    );
    await writeFile(join(path, 'a.txt'), 'changed\n');

    // Act
    await statusPorcelain(at(path));
    await addAll(at(path));
    await commit(at(path), 'feat: x');
    await checkoutBranch(at(path), 'other', 'HEAD');

    // Assess
    await expect(access(join(out, 'post-commit.env'))).rejects.toThrow();
    await expect(access(join(out, 'post-checkout.env'))).rejects.toThrow();
    await expect(access(join(out, 'reference-transaction.env'))).rejects.toThrow();
    await expect(access(join(out, 'fsmonitor.env'))).rejects.toThrow();
  });

  it('sends the token as a header, never stores it, and keeps it out of errors', async () => {
    // Prepare
    const seen: IncomingHttpHeaders[] = [];
    const server: Server = createServer((request, response) => {
      seen.push(request.headers);
      response.writeHead(403).end('no');
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const { port } = server.address() as AddressInfo;
    const target = join(await tempDir(), 'clone');

    // Act
    const error = await clone(
      spawner,
      `http://127.0.0.1:${port}/repo.git`,
      target,
      'sekrit-token',
    ).catch((caught: unknown) => caught);
    await new Promise((resolve) => server.close(resolve));

    // Assess
    const expected = `Basic ${Buffer.from('x-access-token:sekrit-token').toString('base64')}`;
    expect(seen[0]?.authorization).toBe(expected);
    expect(error).toBeInstanceOf(GitError);
    expect(String((error as Error).message)).not.toContain('sekrit-token');
    expect(String((error as Error).message)).not.toContain(expected.slice(6));
  });
});

import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { REPO_ROOT } from '../../lib/paths.js';
import type { Spawner } from '../../agent/process/spawner.js';
import { bundleRunner as bundle } from '../support/agent-bundle.js';

const scratch = mkdtempSync(join(tmpdir(), 'ralph-agent-bundle-'));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

const DOCKERFILE = readFileSync(join(REPO_ROOT, 'agent', 'Dockerfile'), 'utf8');

const gitVersion = {
  file: 'git',
  args: ['--version'],
  cwd: tmpdir(),
  env: { PATH: process.env.PATH ?? '/usr/bin:/bin' },
  timeoutMs: 10_000,
  killGraceMs: 1_000,
  maxOutputBytes: 1024 * 1024,
};

describe('The runner image (agent/Dockerfile)', () => {
  it('bundles the runner without the spawn server, and copies nothing for it', async () => {
    // Act
    const outfile = await bundle('agent/main.ts', mkdtempSync(join(scratch, 'app-')));

    // Assess
    const text = readFileSync(outfile, 'utf8');
    expect(text).toContain('ChildProcessSpawner');
    expect(text).not.toContain('server-main.mjs');
    expect(text).not.toContain('SpawnServer');
    // The templates are the one thing copied beside the bundle.
    const copies = DOCKERFILE.split('\n').filter((line) => /^COPY (?!--from)/.test(line));
    expect(copies.filter((line) => line.includes('/app/'))).toEqual([
      'COPY lambdas/core/prompts/templates/ /app/templates/',
    ]);
  });

  it('runs the runner as root and names the unprivileged user it starts the agent as', () => {
    // Prepare
    const lines = DOCKERFILE.split('\n');
    const runtime = lines.slice(
      lines.findIndex((line) => line.startsWith('FROM node:22-bookworm-slim')),
    );

    // Assess: the runner must be root to switch users; the agent user must exist.
    expect(runtime.filter((line) => line.startsWith('USER '))).toEqual([]);
    expect(runtime).toContain('ENV RALPH_AGENT_USER=agent');
    expect(runtime.some((line) => /useradd .*\bagent\b/.test(line))).toBe(true);
  });

  it('runs git from a bundle with nothing beside it, as plain child processes', async () => {
    // Prepare
    const outfile = await bundle(
      'agent/process/child-process-spawner.ts',
      mkdtempSync(join(scratch, 'bare-')),
    );
    const module = (await import(pathToFileURL(outfile).href)) as {
      ChildProcessSpawner: new () => Spawner;
    };

    // Act
    const result = await new module.ChildProcessSpawner().run(gitVersion);

    // Assess
    expect(result.exitCode).toBe(0);
    expect(result.stdout.toString()).toMatch(/^git version /);
  });
});

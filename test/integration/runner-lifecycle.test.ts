import { readdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { runIteration, type RunnerDeps } from '../../agent/runner.js';
import type { DynamoRunStore } from '../../lambdas/adapters/dynamodb/run-store.js';
import { IterationClaimedError } from '../../lambdas/core/errors.js';
import type { IterationResult } from '../../lambdas/core/schemas/iteration-result.js';
import {
  artefact,
  exists,
  failingReads,
  isClean,
  scenario,
  storedResult,
  useRunnerScenarios,
} from '../support/runner-scenario.js';
import { isProcessRunning } from '../support/spawners.js';

let runs: DynamoRunStore;

useRunnerScenarios((stores) => ({ runs } = stores));

describe('Function: runIteration — claim, stop and errors', () => {
  it('refuses a duplicate delivery: the agent runs once', async () => {
    // Prepare
    const { runId, out, deps } = await scenario({
      agent: 'echo run >> "$OUT/runs.txt"; echo x > x.ts',
    });

    // Act
    const settled = await Promise.allSettled([
      runIteration(deps, { runId, iteration: 1 }),
      runIteration(deps, { runId, iteration: 1 }),
    ]);
    const again = runIteration(deps, { runId, iteration: 1 });

    // Assess
    expect(settled.filter((entry) => entry.status === 'fulfilled')).toHaveLength(1);
    const rejected = settled.find((entry) => entry.status === 'rejected');
    expect(rejected?.status === 'rejected' && rejected.reason).toBeInstanceOf(
      IterationClaimedError,
    );
    await expect(again).rejects.toBeInstanceOf(IterationClaimedError);
    expect(await readFile(join(out, 'runs.txt'), 'utf8')).toBe('run\n');
  });

  it('stops the agent when the run is cancelled, keeping its change as evidence', async () => {
    // Prepare
    const { runId, repo, out, deps } = await scenario({
      agent: 'echo wip > wip.ts; sleep 100 & echo $! > "$OUT/child.pid"; sleep 100',
    });
    setTimeout(() => {
      void (async () => {
        const run = await runs.getRun(runId);
        if (run) await runs.saveRun({ ...run, cancelRequested: true }, run.version);
      })();
    }, 300);

    // Act
    const result = await runIteration(deps, { runId, iteration: 1 });

    // Assess
    expect(result.outcome).toBe('cancelled');
    expect(result.cause).toBe('the run was cancelled while the agent ran');
    expect(result.evidenceRef).toBe(`refs/ralph/evidence/${runId}/1`);
    expect(result.durations.agentMs).toBeLessThan(5_000);
    const pid = Number((await readFile(join(out, 'child.pid'), 'utf8')).trim());
    expect(await isProcessRunning(pid)).toBe(false);
    expect(await isClean(repo)).toBe(true);
  });

  it('does not start the agent for a run that is already cancelled', async () => {
    // Prepare
    const { runId, out, deps } = await scenario({ agent: 'touch "$OUT/agent-ran"' });
    const run = await runs.getRun(runId);
    if (run) await runs.saveRun({ ...run, cancelRequested: true }, run.version);

    // Act
    const result = await runIteration(deps, { runId, iteration: 1 });

    // Assess
    expect(result.outcome).toBe('cancelled');
    expect(await exists(join(out, 'agent-ran'))).toBe(false);
  });

  it('reports interrupted when the runner is told to stop', async () => {
    // Prepare
    const { runId, out, deps } = await scenario({ agent: 'touch "$OUT/started"; sleep 100' });
    const controller = new AbortController();

    // Act: stop once the agent runs.
    const running = runIteration({ ...deps, signal: controller.signal }, { runId, iteration: 1 });
    while (!(await exists(join(out, 'started'))))
      await new Promise((resolve) => setTimeout(resolve, 20));
    controller.abort();
    const result = await running;

    // Assess
    expect(result.outcome).toBe('interrupted');
    expect(result.cause).toBe('the runner was told to stop while the agent ran');
  });

  it('removes the clone when plan.json cannot be read', async () => {
    // Prepare
    const { runId, deps } = await scenario({
      agent: 'true',
      repo: (path) => ({ kind: 'git', url: `${path}/.git` }),
    });
    const broken: RunnerDeps = { ...deps, artefacts: failingReads() };

    // Act
    const running = runIteration(broken, { runId, iteration: 1 });

    // Assess
    await expect(running).rejects.toThrow('S3 is down');
    expect((await storedResult(runId)).outcome).toBe('runner_error');
    expect(await readdir(deps.workspaceRoot ?? '')).toEqual([]);
  });

  it('writes a runner_error result and rethrows when something unexpected fails', async () => {
    // Prepare
    const { runId, deps } = await scenario({ agent: 'true' });
    const broken: RunnerDeps = { ...deps, artefacts: failingReads() };

    // Act
    const running = runIteration(broken, { runId, iteration: 1 });

    // Assess
    await expect(running).rejects.toThrow('S3 is down');
    const result = await storedResult(runId);
    expect(result.outcome).toBe('runner_error');
    expect(result.cause).toBe('Error: S3 is down');
  });

  it("keeps the runner's credentials from the agent, the gates and hooks the agent plants", async () => {
    // Prepare
    const secrets: Record<string, string> = {
      AWS_ACCESS_KEY_ID: 'AKIATEST',
      AWS_SECRET_ACCESS_KEY: 'secret',
      AWS_SESSION_TOKEN: 'session',
      AWS_CONTAINER_CREDENTIALS_RELATIVE_URI: '/v2/credentials/abc',
      AWS_ENDPOINT_URL_S3: 'http://127.0.0.1:1',
      ECS_CONTAINER_METADATA_URI_V4: 'http://169.254.170.2/v4/abc',
      GIT_TOKEN: 'ghp_test',
      TABLE_NAME: 'ralph-table',
      BUCKET_NAME: 'ralph-bucket',
    };
    const { runId, out, deps } = await scenario({
      agent: [
        'env > "$OUT/agent.env"',
        'printf \'#!/bin/sh\\nenv > "%s/hook.env"\\n\' "$OUT" > .git/hooks/post-commit',
        'chmod +x .git/hooks/post-commit',
        'echo x > x.ts',
      ].join(' && '),
      gates: [{ name: 'env', command: 'env' }],
    });
    const saved = { ...process.env };
    Object.assign(process.env, secrets, { ANTHROPIC_API_KEY: 'sk-ant-test' });

    // Act
    let result: IterationResult;
    try {
      result = await runIteration(deps, { runId, iteration: 1 });
    } finally {
      for (const name of [...Object.keys(secrets), 'ANTHROPIC_API_KEY']) {
        if (saved[name] === undefined) delete process.env[name];
        else process.env[name] = saved[name];
      }
    }

    // Assess
    expect(result.outcome).toBe('passed');
    const gates = JSON.parse(await artefact(runId, 'gates.json')) as {
      gates: { output: string }[];
    };
    const seen = {
      agent: await readFile(join(out, 'agent.env'), 'utf8'),
      gate: gates.gates[0]?.output ?? '',
    };
    for (const env of Object.values(seen)) {
      const names = env.split('\n').map((line) => line.split('=')[0] ?? '');
      expect(names.filter((name) => name in secrets || /^(AWS|ECS)_/.test(name))).toEqual([]);
      expect(names).toEqual(expect.arrayContaining(['ANTHROPIC_API_KEY', 'PATH', 'HOME']));
    }
    expect(seen.agent).toContain(`OUT=${out}`);
    expect(await exists(join(out, 'hook.env'))).toBe(false);
  });
});

import { existsSync } from 'node:fs';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ExecutionExistsError } from '../../lambdas/core/errors.js';
import { resumeStoredRun } from '../../lambdas/core/runs/control-runs.js';
import { requestCancel } from '../../lambdas/core/steps/lifecycle.js';
import { useReposWithPrd } from '../support/repos-with-prd.js';
import { runToEnd, submitLocalRun, waitUntil } from '../support/local-runs.js';
import { useLocalStack, WRITING_AGENT } from '../support/e2e-stack.js';

describe('Run loop: continuing a run that ended without finishing', () => {
  const stack = useLocalStack();
  const repoWithPrd = useReposWithPrd();
  let flags: string;
  beforeAll(async () => {
    flags = await mkdtemp(join(tmpdir(), 'ralph-continue-'));
  });
  afterAll(async () => {
    await rm(flags, { recursive: true, force: true });
  });
  const deps = () => ({ ...stack().deps, executions: stack().executions });

  it('continues a cancelled run once, however many resumes race for it', async () => {
    // Prepare: the agent waits for a flag outside the repository; the run is cancelled.
    const { repo, prd } = await repoWithPrd(2);
    const go = join(flags, 'go');
    const agent = `cat > /dev/null; echo started > "${flags}/started"; test -f "${go}" || sleep 30; ${WRITING_AGENT}`;
    const runId = await submitLocalRun(stack(), {
      repo,
      prd,
      config: { agent: { command: agent } },
    });
    await waitUntil(async () => existsSync(join(flags, 'started')));
    await requestCancel(stack().deps, runId);
    const cancelled = await runToEnd(stack(), runId);
    await writeFile(go, '');

    // Act: two resumes at once.
    const resumes = await Promise.allSettled([
      resumeStoredRun(deps(), runId, { maxIterations: 4 }),
      resumeStoredRun(deps(), runId, { maxIterations: 4 }),
    ]);
    const done = await runToEnd(stack(), runId);

    // Assess: one started segment 2, the other was refused; the stories then passed.
    expect(cancelled.run.status).toBe('cancelled');
    expect(resumes.map((resume) => resume.status).sort()).toEqual(['fulfilled', 'rejected']);
    expect(resumes.find((resume) => resume.status === 'fulfilled')?.value.segment).toBe(2);
    expect(done.run).toMatchObject({ status: 'completed', segment: 2, storiesPassed: 2 });
    expect(done.run.config.limits.maxIterations).toBe(4);
    expect(done.iterations.map((it) => [it.iteration, it.segment, it.outcome])).toEqual([
      [1, 1, 'cancelled'],
      [2, 2, 'passed'],
      [3, 2, 'passed'],
    ]);
  });

  it('starts a segment once when two starts of it race (one is refused as existing)', async () => {
    // Prepare: a run that has ended.
    const { repo, prd } = await repoWithPrd(1);
    const runId = await submitLocalRun(stack(), {
      repo,
      prd,
      config: { agent: { command: WRITING_AGENT } },
    });
    await runToEnd(stack(), runId);

    // Act: the same segment started twice in the same tick.
    const starts = await Promise.allSettled([
      stack().executions.startSegment({ runId, segment: 2 }),
      stack().executions.startSegment({ runId, segment: 2 }),
    ]);

    // Assess
    expect(starts.map((start) => start.status).sort()).toEqual(['fulfilled', 'rejected']);
    const refused = starts.find((start) => start.status === 'rejected');
    expect(refused?.reason).toBeInstanceOf(ExecutionExistsError);
    await waitUntil(async () => !(await stack().executions.isRunning({ runId, segment: 2 })));
  });

  it('refuses a run that was aborted, with its stop reason', async () => {
    // Prepare: every attempt fails its gate until the failure limit aborts the run.
    const { repo, prd } = await repoWithPrd(1);
    const runId = await submitLocalRun(stack(), {
      repo,
      prd,
      config: {
        agent: { command: WRITING_AGENT },
        gates: [{ name: 'never', command: 'false' }],
        limits: { maxConsecutiveFailures: 1 },
      },
    });
    const aborted = await runToEnd(stack(), runId);

    // Act
    const resumed = resumeStoredRun(deps(), runId, { maxIterations: 9 });

    // Assess
    expect(aborted.run.status).toBe('aborted');
    await expect(resumed).rejects.toThrow(
      /has ended \(aborted: .*in a row.*\) and cannot be continued.*start a new run/,
    );
  });
});

import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { execa } from 'execa';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makeGitRepo, makePrd } from '../support/git-repo.js';
import { runToEnd, submitLocalRun } from '../support/local-runs.js';
import { useLocalStack, WRITING_AGENT } from '../support/e2e-stack.js';
import { artefactKeys } from '../../lambdas/core/shared/artefact-keys.js';

/** Whole runs through the local stack, one fault each; nothing below the agent is a double. */
describe('Run loop: faults end the iteration with a recorded cause', () => {
  const stack = useLocalStack();
  let scratch: string;
  const cleanups: (() => Promise<void>)[] = [];

  beforeAll(async () => {
    scratch = await mkdtemp(join(tmpdir(), 'ralph-faults-'));
  });
  afterAll(async () => {
    await Promise.all(cleanups.map((cleanup) => cleanup()));
    await rm(scratch, { recursive: true, force: true });
  });

  async function repoWithPrd(stories: number) {
    const prd = makePrd(stories);
    const repo = await makeGitRepo({ 'prd.json': `${JSON.stringify(prd, null, 2)}\n` });
    cleanups.push(repo.cleanup);
    return { repo: repo.path, prd };
  }

  it('an agent that crashes once: the crash is recorded and the next iteration passes', async () => {
    // Prepare: the first invocation kills its own shell with SIGKILL.
    const marker = join(scratch, 'crashed-once');
    const agent = `cat > /dev/null; if [ ! -f "${marker}" ]; then touch "${marker}"; kill -9 $$; fi; ${WRITING_AGENT}`;
    const { repo, prd } = await repoWithPrd(1);

    // Act
    const runId = await submitLocalRun(stack(), {
      repo,
      prd,
      config: { agent: { command: agent } },
    });
    const { run, iterations } = await runToEnd(stack(), runId);

    // Assess
    expect(iterations.map((it) => it.outcome)).toEqual(['agent_crashed', 'passed']);
    expect(iterations[0]!.cause).toMatch(/SIGKILL/);
    expect(run.status).toBe('completed');
  });

  it('an agent that hangs past its timeout: its whole process group is killed', async () => {
    // Prepare: a grandchild that would outlive a naive kill.
    const agent = 'cat > /dev/null; (sleep 31.7 &); sleep 31.7';
    const { repo, prd } = await repoWithPrd(1);

    // Act
    const runId = await submitLocalRun(stack(), {
      repo,
      prd,
      config: { agent: { command: agent, timeoutSeconds: 1 }, limits: { maxIterations: 1 } },
    });
    const { run, iterations } = await runToEnd(stack(), runId);

    // Assess
    expect(iterations.map((it) => it.outcome)).toEqual(['agent_timeout']);
    expect(run.status).toBe('max_iterations');
    const leftovers = await execa('pgrep', ['-f', 'sleep 31.7'], { reject: false });
    expect(leftovers.stdout).toBe('');
  });

  it('an agent that exits non-zero, then a gate that hangs: each recorded, the run goes on', async () => {
    // Prepare: attempt 1 exits 3; attempt 2 writes its file but the slow gate hangs once.
    const exited = join(scratch, 'exited-once');
    const hung = join(scratch, 'hung-once');
    const agent = `cat > /dev/null; if [ ! -f "${exited}" ]; then touch "${exited}"; echo "cannot build" >&2; exit 3; fi; ${WRITING_AGENT}`;
    const gate = `if [ ! -f "${hung}" ]; then touch "${hung}"; sleep 30; fi; true`;
    const { repo, prd } = await repoWithPrd(1);

    // Act
    const runId = await submitLocalRun(stack(), {
      repo,
      prd,
      config: {
        agent: { command: agent },
        gates: [{ name: 'slow', command: gate, timeoutSeconds: 1 }],
      },
    });
    const { run, iterations } = await runToEnd(stack(), runId);

    // Assess
    expect(iterations.map((it) => it.outcome)).toEqual(['agent_failed', 'gates_failed', 'passed']);
    expect(iterations[0]!.agentExitCode).toBe(3);
    expect(iterations[1]!.gates[0]).toMatchObject({ name: 'slow', passed: false, timedOut: true });
    expect(run.status).toBe('completed');
    // Every iteration kept its own artefacts: nothing was overwritten by a later one.
    for (const iteration of iterations) {
      const result = JSON.parse(
        await stack().deps.artefacts.getText(
          artefactKeys.iteration(runId, iteration.iteration, 'result.json'),
        ),
      ) as { outcome: string };
      expect(result.outcome).toBe(iteration.outcome);
    }
  });

  it('an agent that never changes anything stops at max iterations', async () => {
    const { repo, prd } = await repoWithPrd(2);

    const runId = await submitLocalRun(stack(), {
      repo,
      prd,
      config: { agent: { command: 'cat > /dev/null' }, limits: { maxIterations: 3 } },
    });
    const { run, iterations } = await runToEnd(stack(), runId);

    expect(iterations.map((it) => it.outcome)).toEqual(['no_changes', 'no_changes', 'no_changes']);
    expect(run).toMatchObject({
      status: 'max_iterations',
      storiesPassed: 0,
      iterationsCompleted: 3,
    });
    expect(run.stopReason).toMatch(/limit of 3 iterations; 0 of 2 stories pass/);
  });

  it('too many failures in a row abort the run', async () => {
    const { repo, prd } = await repoWithPrd(1);

    const runId = await submitLocalRun(stack(), {
      repo,
      prd,
      config: { agent: { command: 'exit 1' }, limits: { maxConsecutiveFailures: 2 } },
    });
    const { run, iterations } = await runToEnd(stack(), runId);

    expect(iterations).toHaveLength(2);
    expect(run.status).toBe('aborted');
    expect(run.stopReason).toMatch(/2 iterations in a row/);
  });

  it('a missing repository aborts the run with the cause', async () => {
    const prd = makePrd(1);

    const runId = await submitLocalRun(stack(), {
      repo: join(scratch, 'no-such-repo'),
      prd,
      config: { agent: { command: WRITING_AGENT } },
    });
    const { run, iterations } = await runToEnd(stack(), runId);

    expect(iterations.map((it) => it.outcome)).toEqual(['workspace_missing']);
    expect(run.status).toBe('aborted');
    expect(run.stopReason).toContain('no-such-repo');
  });

  it("an agent's COMPLETE promise is a claim, not a verdict", async () => {
    const { repo, prd } = await repoWithPrd(2);

    const runId = await submitLocalRun(stack(), {
      repo,
      prd,
      config: {
        agent: { command: `${WRITING_AGENT}; echo '<promise>COMPLETE</promise>'` },
        gates: [{ name: 'only-us-001', command: 'test ! -f US-002.txt' }],
        limits: { maxIterations: 2 },
      },
    });
    const { run, iterations } = await runToEnd(stack(), runId);

    expect(iterations.map((it) => [it.outcome, it.agentClaimedComplete])).toEqual([
      ['passed', true],
      ['gates_failed', true],
    ]);
    expect(run.status).toBe('max_iterations');
  });
});

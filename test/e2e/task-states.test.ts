import { afterAll, describe, expect, it } from 'vitest';
import { makeGitRepo, makePrd } from '../support/git-repo.js';
import { runToEnd, submitLocalRun } from '../support/local-runs.js';
import { useLocalStack } from '../support/e2e-stack.js';

describe('Run loop: task states (blocked, skipped, picked again)', () => {
  const stack = useLocalStack();
  const cleanups: (() => Promise<void>)[] = [];
  afterAll(async () => {
    await Promise.all(cleanups.map((cleanup) => cleanup()));
  });

  it('blocks a story after 3 failed attempts, finishes the next one, retries the blocked one, and aborts when it stays blocked', async () => {
    // Prepare: US-001 never passes its gate (its file is never right); US-002 does.
    const prd = makePrd(2);
    const repo = await makeGitRepo({ 'prd.json': `${JSON.stringify(prd, null, 2)}\n` });
    cleanups.push(repo.cleanup);
    const runId = await submitLocalRun(stack(), {
      repo: repo.path,
      prd,
      config: {
        agent: { command: 'cat > /dev/null; echo "$RALPH_ITERATION" > "$RALPH_STORY_ID.txt"' },
        gates: [
          {
            name: 'story',
            command: 'test ! -f US-001.txt || (echo "US-001 is wrong" >&2; exit 1)',
          },
        ],
        limits: { maxIterations: 12, maxConsecutiveFailures: 12 },
      },
    });

    // Act
    const { run, tasks, iterations } = await runToEnd(stack(), runId);

    // Assess: 3 attempts at US-001, US-002 done, US-001 again (3 more), then the abort.
    expect(iterations.map((record) => [record.taskId, record.outcome])).toEqual([
      ['US-001', 'gates_failed'],
      ['US-001', 'gates_failed'],
      ['US-001', 'gates_failed'],
      ['US-002', 'passed'],
      ['US-001', 'gates_failed'],
      ['US-001', 'gates_failed'],
      ['US-001', 'gates_failed'],
    ]);
    const [first, second] = tasks;
    expect(first).toMatchObject({
      taskId: 'US-001',
      status: 'blocked',
      timesBlocked: 2,
      attempts: 6,
    });
    expect(first?.blockedReason).toContain('3 attempts failed');
    expect(second).toMatchObject({ taskId: 'US-002', status: 'complete' });
    expect(run.status).toBe('aborted');
    expect(run.stopReason).toContain('every open story is blocked');
  });
});

import { afterAll, describe, expect, it } from 'vitest';
import { git, makeGitRepo, makePrd } from '../support/git-repo.js';
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
    expect(first?.block?.reason).toContain('3 attempts failed');
    expect(second).toMatchObject({ taskId: 'US-002', status: 'complete' });
    expect(run.status).toBe('aborted');
    expect(run.stopReason).toContain('every open story is blocked');
  });
});

describe('Run loop: a story too big for one iteration', () => {
  const stack = useLocalStack();
  const cleanups: (() => Promise<void>)[] = [];
  afterAll(async () => {
    await Promise.all(cleanups.map((cleanup) => cleanup()));
  });

  it('is decomposed after a timeout, its subtasks done one per iteration, the story passing with the last', async () => {
    // Prepare: the whole story at once overruns the agent's timeout; a subtask does not.
    const prd = makePrd(1, {
      userStories: [
        {
          id: 'US-001',
          title: 'Export todos',
          description: 'As a user I want to export my todos.',
          acceptanceCriteria: [
            'Export writes a CSV file with a header row',
            'Export includes the done column',
            'Export of an empty list writes only the header',
            'Typecheck passes',
          ],
          priority: 1,
          passes: false,
          notes: '',
        },
      ],
    });
    const repo = await makeGitRepo({ 'prd.json': `${JSON.stringify(prd, null, 2)}\n` });
    cleanups.push(repo.cleanup);
    const agent = [
      'cat > /dev/null',
      'if [ -z "$RALPH_SUBTASK_ID" ]; then sleep 30; fi',
      'echo done > "$RALPH_SUBTASK_ID.txt"',
    ].join('; ');
    const runId = await submitLocalRun(stack(), {
      repo: repo.path,
      prd,
      config: { agent: { command: agent, timeoutSeconds: 1 }, limits: { maxIterations: 6 } },
    });

    // Act
    const { run, tasks, iterations } = await runToEnd(stack(), runId);

    // Assess
    expect(iterations.map((record) => record.outcome)).toEqual([
      'agent_timeout',
      'passed',
      'passed',
      'passed',
    ]);
    expect(tasks[0]?.status).toBe('complete');
    expect(tasks[0]?.subtasks?.map((subtask) => [subtask.id, subtask.status])).toEqual([
      ['US-001.1', 'complete'],
      ['US-001.2', 'complete'],
      ['US-001.3', 'complete'],
    ]);
    expect(run.status).toBe('completed');
    const subjects = await git(repo.path, 'log', '--format=%s', '-3', 'ralph/demo');
    expect(subjects.split('\n')).toEqual([
      expect.stringMatching(/^feat: US-001\.3 - /),
      expect.stringMatching(/^feat: US-001\.2 - /),
      expect.stringMatching(/^feat: US-001\.1 - /),
    ]);
    // Only the last subtask's commit marks the story as passing.
    const prdAfterFirst = await git(repo.path, 'show', 'ralph/demo~2:prd.json');
    expect(JSON.parse(prdAfterFirst).userStories[0].passes).toBe(false);
    const prdAtEnd = await git(repo.path, 'show', 'ralph/demo:prd.json');
    expect(JSON.parse(prdAtEnd).userStories[0].passes).toBe(true);
    const prompt = await stack().deps.artefacts.getText(`runs/${runId}/iterations/3/prompt.md`);
    expect(prompt).toContain('## Decomposed: work on subtask 2 of 3 ONLY');
  });
});

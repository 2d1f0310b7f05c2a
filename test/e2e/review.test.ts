import { stripVTControlCharacters } from 'node:util';
import { afterAll, describe, expect, it } from 'vitest';
import { tasksTable } from '../../bin/cli/render.js';
import { artefactKeys } from '../../lambdas/core/shared/artefact-keys.js';
import { IterationResultSchema } from '../../lambdas/core/schemas/iteration-result.js';
import { IterationPlanSchema } from '../../lambdas/core/schemas/plan.js';
import type { LocalStack } from '../../local/local-stack.js';
import { git, makeGitRepo, makePrd } from '../support/git-repo.js';
import { runToEnd, submitLocalRun } from '../support/local-runs.js';
import { useLocalStack } from '../support/e2e-stack.js';

/**
 * Adds source the first time; once the source is on the branch (its iteration counted), adds
 * the test the review asks for.
 */
const AGENT = [
  'cat > /dev/null',
  'mkdir -p src',
  'if [ -f src/feature.ts ]; then',
  '  printf "import { a } from \\"./feature\\";\\nit(\\"a\\", () => a);\\n" > src/feature.test.ts',
  'else',
  '  printf "export const a = 1;\\nexport const b = 2;\\n" > src/feature.ts',
  'fi',
].join('\n');

const MISSING_TESTS =
  '2 source lines added in 1 file (src/feature.ts) and no test file changed (quality.tests.requireNewTestsForNewCode)';

function rawText(stack: LocalStack, runId: string, iteration: number, name: 'prompt.md') {
  return stack.deps.artefacts.getText(artefactKeys.iteration(runId, iteration, name));
}

async function text(
  stack: LocalStack,
  runId: string,
  iteration: number,
  name: 'plan.json' | 'result.json',
) {
  return JSON.parse(
    await stack.deps.artefacts.getText(artefactKeys.iteration(runId, iteration, name)),
  ) as unknown;
}

describe('Run loop: a story in review (quality enforcement)', () => {
  const stack = useLocalStack();
  const cleanups: (() => Promise<void>)[] = [];
  afterAll(async () => {
    await Promise.all(cleanups.map((cleanup) => cleanup()));
  });

  async function submit(
    quality: { maxReviewIterations?: number } = {},
  ): Promise<{ runId: string; repo: string }> {
    const prd = makePrd(1);
    const repo = await makeGitRepo({ 'prd.json': `${JSON.stringify(prd, null, 2)}\n` });
    cleanups.push(repo.cleanup);
    const runId = await submitLocalRun(stack(), {
      repo: repo.path,
      prd,
      config: {
        agent: { command: AGENT },
        gates: [{ name: 'story', command: 'test -f src/feature.ts' }],
        limits: { maxIterations: 4 },
        control: { quality: { tests: { requireNewTestsForNewCode: true }, ...quality } },
      },
    });
    return { runId, repo: repo.path };
  }

  it('sends a story that added source without tests to review, and completes it once the review iteration adds the test', async () => {
    // Prepare
    const { runId, repo } = await submit();

    // Act
    const { run, tasks, iterations } = await runToEnd(stack(), runId);

    // Assess: two passes on the one story; the run did not complete after the first.
    expect(iterations.map((record) => [record.taskId, record.outcome])).toEqual([
      ['US-001', 'passed'],
      ['US-001', 'passed'],
    ]);
    const first = IterationResultSchema.parse(await text(stack(), runId, 1, 'result.json'));
    expect(first.review?.findings).toEqual([{ kind: 'missing_tests', message: MISSING_TESTS }]);
    // The story was in review when iteration 2 was planned: the reviewer's mode, and the
    // findings in the prompt the agent received.
    const plan = IterationPlanSchema.parse(await text(stack(), runId, 2, 'plan.json'));
    expect(plan.control?.mode).toBe('reviewer');
    expect(plan.control?.sections.map((section) => section.kind)).toEqual(['role', 'review']);
    const prompt = await rawText(stack(), runId, 2, 'prompt.md');
    expect(prompt).toContain('## Review findings to address');
    expect(prompt).toContain(`- [missing tests] ${MISSING_TESTS}`);
    expect(prompt).toContain('This is the last review');
    expect(await rawText(stack(), runId, 1, 'prompt.md')).not.toContain('Review findings');
    const second = IterationResultSchema.parse(await text(stack(), runId, 2, 'result.json'));
    expect(second.review).toBeUndefined();
    expect(tasks[0]).toMatchObject({
      taskId: 'US-001',
      status: 'complete',
      attempts: 2,
      review: { findings: [], reviews: 1, iteration: 2 },
    });
    expect(run).toMatchObject({ status: 'completed', storiesPassed: 1 });
    const subjects = await git(repo, 'log', '--format=%s', '-2', 'ralph/demo');
    expect(subjects.split('\n')).toEqual(['feat: US-001 - Story 1', 'feat: US-001 - Story 1']);
    expect(await git(repo, 'show', '--name-only', '--format=', 'ralph/demo')).toContain(
      'src/feature.test.ts',
    );
    const table = stripVTControlCharacters(tasksTable(tasks));
    expect(table).toContain('✓ passes');
    expect(table).not.toContain('review findings');
  });

  it('completes the story at once with its findings kept when maxReviewIterations is 0', async () => {
    // Prepare
    const { runId } = await submit({ maxReviewIterations: 0 });

    // Act
    const { run, tasks, iterations } = await runToEnd(stack(), runId);

    // Assess
    expect(iterations.map((record) => record.outcome)).toEqual(['passed']);
    expect(tasks[0]).toMatchObject({
      status: 'complete',
      review: {
        findings: [{ kind: 'missing_tests', message: MISSING_TESTS }],
        reviews: 0,
        iteration: 1,
      },
    });
    expect(run).toMatchObject({ status: 'completed', storiesPassed: 1 });
    const table = stripVTControlCharacters(tasksTable(tasks));
    expect(table).toContain('✓ passes (1 finding)');
    expect(table).toContain(`    [missing tests] ${MISSING_TESTS}`);
  });
});

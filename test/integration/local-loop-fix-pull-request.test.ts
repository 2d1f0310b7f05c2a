/**
 * The run loop on the local engine takes an investigate iteration to OpenFixPullRequest:
 * the very ASL file, the in-process handler with the code host the stack was given (the
 * GitHub double), and the run's report written when it ends. The runner is an outer edge
 * here: a stand-in claims the iteration and writes result.json as the runner does.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { InvestigationReportSchema } from '../../lambdas/core/schemas/investigation-report.js';
import { RunRequestSchema } from '../../lambdas/core/schemas/run-request.js';
import { artefactKeys } from '../../lambdas/core/shared/artefact-keys.js';
import { openLocalStack, type LocalStack } from '../../local/local-stack.js';
import type { StepEvent } from '../../local/local-executions.js';
import { startGitHubDouble, type GitHubDouble } from '../../local/github-double/server.js';
import { codeHostAt } from '../support/github-double.js';
import { makePrd } from '../support/git-repo.js';
import {
  FIX_COMMIT,
  makeInvestigateIterationResult,
  makeInvestigationResult,
  makeRunInvestigation,
} from '../support/investigation-records.js';
import { runToEnd } from '../support/local-runs.js';

const TOKEN = 'ghs_localLoop';

describe('The local run loop: an investigate run', () => {
  let github: GitHubDouble;
  let stack: LocalStack;
  let scratch: string;
  const steps: StepEvent[] = [];

  beforeAll(async () => {
    scratch = await mkdtemp(join(tmpdir(), 'ralph-local-fixpr-'));
    github = await startGitHubDouble({
      tokens: [TOKEN],
      repositories: [{ owner: 'acme', name: 'shop' }],
    });
    stack = await openLocalStack({
      retryIntervalMs: 0,
      codeHost: codeHostAt(github.url, { kind: 'token', token: TOKEN }),
      onStep: (event) => steps.push(event),
      runAgent: async ({ runId, iteration }) => {
        const planned = await stack.deps.runs.claimIteration(
          runId,
          iteration,
          new Date().toISOString(),
        );
        const result = makeInvestigateIterationResult(makeInvestigationResult(), {
          runId,
          iteration,
          taskId: planned.taskId,
          commit: FIX_COMMIT,
          filesChanged: ['src/cart.ts'],
        });
        await stack.deps.artefacts.put(
          artefactKeys.iteration(runId, iteration, 'result.json'),
          JSON.stringify(result),
        );
      },
    });
  });

  afterAll(async () => {
    await stack?.close();
    await github?.close();
    await rm(scratch, { recursive: true, force: true });
  });

  it('opens the draft pull request after the runner, and ends with the report', async () => {
    // Prepare: the request an intake stores for a batch of one error
    const runId = 'r20260302-090000-fixpr1';
    const request = RunRequestSchema.parse({
      runId,
      projectId: 'shop',
      repo: { kind: 'local', path: scratch },
      prdPath: 'prd.json',
      prd: makePrd(1, {
        userStories: [
          {
            id: 'ERR-1',
            title: 'Investigate: TypeError',
            description: 'A TypeError from sentry',
            acceptanceCriteria: ['The root cause is found'],
            priority: 1,
            passes: false,
            notes: '',
          },
        ],
      }),
      config: {},
      submittedAt: new Date().toISOString(),
      investigation: makeRunInvestigation(),
    });
    await stack.deps.artefacts.put(artefactKeys.request(runId), JSON.stringify(request));

    // Act
    await stack.executions.startSegment({ runId, segment: 1 });
    const { run } = await runToEnd(stack, runId);

    // Assess
    expect(run.status).toBe('completed');
    const states = steps
      .filter((step) => step.executionName.startsWith(runId))
      .map((step) => step.state);
    expect(states).toEqual(['InitRun', 'RunAgent', 'OpenFixPullRequest', 'Advance', 'FinalizeRun']);
    const pulls = github.state.repositories.get('acme/shop')?.pulls ?? [];
    expect(pulls).toMatchObject([{ draft: true, head: 'ralph/fix/ab12cd34', base: 'main' }]);
    const report = InvestigationReportSchema.parse(
      JSON.parse(
        await stack.deps.artefacts.getText(
          artefactKeys.runArtefact(runId, 'investigation-report.json'),
        ),
      ),
    );
    expect(report.pullRequestsOpened).toEqual([
      { taskId: 'ERR-1', number: 1, htmlUrl: `${github.url}/acme/shop/pull/1` },
    ]);
  });
});

/**
 * The pull-request step of an investigate run (openFixPullRequest) against the DynamoDB and
 * S3 emulators and the GitHub double: a verified fix becomes one draft pull request with the
 * analysis in its body, however often the step runs and whatever GitHub answers; the cap,
 * drafts refused and an error without a fix are refusals with their reason. The runner's
 * result.json is written here from its schema (the runner is an outer edge for this step).
 */
import { capturedMetrics } from '../support/metrics.js';
import { minisearchRetriever } from '../../lambdas/adapters/minisearch-retriever.js';
import type { LearningStore } from '../../lambdas/learning-ports.js';
import { describe, expect, it } from 'vitest';
import { DynamoFixPullRequests } from '../../lambdas/adapters/dynamodb/fix-pull-requests.js';
import { DynamoIncidentStore } from '../../lambdas/adapters/dynamodb/incident-store.js';
import { ErrorGroupSchema, type ErrorGroup } from '../../lambdas/core/schemas/error-group.js';
import { makeErrorGroup } from '../support/error-groups.js';
import type { DynamoRunStore } from '../../lambdas/adapters/dynamodb/run-store.js';
import type { S3ArtefactStore } from '../../lambdas/adapters/s3.js';
import { promptTemplates } from '../../lambdas/adapters/prompt-template-files.js';
import { systemClock } from '../../lambdas/adapters/clock.js';
import { TransientError } from '../../lambdas/core/errors.js';
import type { InvestigateSettings } from '../../lambdas/core/schemas/project-route.js';
import type { InvestigationResult } from '../../lambdas/core/schemas/investigation.js';
import { FixPullRequestOutcomeSchema } from '../../lambdas/core/schemas/investigation-report.js';
import { artefactKeys } from '../../lambdas/core/shared/artefact-keys.js';
import type { FixPullRequestDeps } from '../../lambdas/core/steps/fix-pull-request-deps.js';
import { openFixPullRequest } from '../../lambdas/core/steps/open-fix-pull-request.js';
import { finalizeRun } from '../../lambdas/core/steps/end-segment.js';
import { InvestigationReportSchema } from '../../lambdas/core/schemas/investigation-report.js';
import type { GitHubDouble } from '../../local/github-double/server.js';
import { useEmulatorStores } from '../support/emulator-stores.js';
import { codeHostAt, useGitHubDouble } from '../support/github-double.js';
import {
  makeInvestigateIterationResult,
  makeInvestigationResult,
  makePass,
  makeRunInvestigation,
} from '../support/investigation-records.js';
import { makeIteration, makeRun, makeTask } from '../support/records.js';
import { nextRunId } from '../support/run-stores.js';

const TOKEN = 'ghs_fixPullRequestStep';
const SHOP = { owner: 'acme', name: 'shop' };
const TASK = 'ERR-ab12cd34ef56';
const SENTRY_LINK = 'https://acme.sentry.io/issues/1170820242/';

let runs: DynamoRunStore;
let artefacts: S3ArtefactStore;
let learning: LearningStore;
let records: DynamoFixPullRequests;
let incidents: DynamoIncidentStore;
let github: GitHubDouble;

useEmulatorStores((stores) => {
  ({ runs, artefacts, learning } = stores);
  records = new DynamoFixPullRequests({
    client: stores.dynamo,
    tableName: stores.emulators.tableName,
  });
  incidents = new DynamoIncidentStore({
    client: stores.dynamo,
    tableName: stores.emulators.tableName,
  });
});
useGitHubDouble(
  {
    tokens: [TOKEN],
    repositories: [
      { ...SHOP, issues: [7] },
      { owner: 'acme', name: 'free', draftPullRequests: false },
    ],
  },
  (started) => (github = started),
);

function depsOf(overrides: Partial<FixPullRequestDeps> = {}): FixPullRequestDeps {
  return {
    runs,
    artefacts,
    clock: systemClock,
    templates: promptTemplates(),
    learning,
    retrievers: minisearchRetriever,
    metrics: capturedMetrics().sink,
    fixPullRequests: records,
    incidents,
    codeHost: codeHostAt(github.url, { kind: 'token', token: TOKEN }, { maxTries: 2 }),
    ...overrides,
  };
}

/** An investigate run whose iteration 1 reported `investigation`, stored as the runner leaves it. */
async function investigateRun(
  investigation: InvestigationResult,
  options: { settings?: Partial<InvestigateSettings>; repo?: typeof SHOP } = {},
): Promise<string> {
  const runId = nextRunId('fixpr');
  await runs.createRun(
    makeRun({
      runId,
      storiesTotal: 1,
      investigation: makeRunInvestigation({
        codeHost: options.repo ?? SHOP,
        settings: options.settings ?? {},
        errors: [{ taskId: TASK, source: 'sentry', fingerprint: 'ab12cd34ef', score: 1 }],
      }),
    }),
    [makeTask({ runId, taskId: TASK, title: 'Investigate: TypeError' })],
  );
  await runs.createIteration(makeIteration({ runId, taskId: TASK, status: 'running' }));
  const result = makeInvestigateIterationResult(investigation, { runId, taskId: TASK });
  await artefacts.put(artefactKeys.iteration(runId, 1, 'result.json'), JSON.stringify(result));
  await artefacts.put(artefactKeys.errorGroup(runId, TASK), JSON.stringify(errorGroup()));
  return runId;
}

/** The task's error group as its batch closed: the shared test group, this error's words. */
function errorGroup(): ErrorGroup {
  const group = makeErrorGroup(
    'ab12cd34ef',
    "TypeError: Cannot read properties of undefined (reading 'price')",
  );
  return {
    ...group,
    latest: { ...group.latest, culprit: 'cart.total', links: { web: SENTRY_LINK } },
  };
}

const pullsOf = (name = 'shop') => github.state.repositories.get(`acme/${name}`)?.pulls ?? [];
const pullPosts = () =>
  github.state.requests.filter(
    (request) => request.method === 'POST' && request.path.endsWith('/pulls'),
  );

async function storedOutcome(runId: string) {
  const text = await artefacts.getText(artefactKeys.iteration(runId, 1, 'pull-request.json'));
  return FixPullRequestOutcomeSchema.parse(JSON.parse(text));
}

describe('Function: openFixPullRequest', () => {
  it('opens one draft pull request for a verified fix, with the analysis in its body', async () => {
    // Prepare
    const runId = await investigateRun(makeInvestigationResult());

    // Act
    const result = await openFixPullRequest(depsOf(), { runId, iteration: 1 });

    // Assess
    expect(result).toEqual({
      outcome: 'opened',
      number: 8,
      htmlUrl: `${github.url}/acme/shop/pull/8`,
    });
    const [pull] = pullsOf();
    expect(pullsOf()).toHaveLength(1);
    expect(pull).toMatchObject({ draft: true, head: 'ralph/fix/ab12cd34', base: 'main' });
    expect(pull?.title).toBe(
      "fix: TypeError: Cannot read properties of undefined (reading 'price')",
    );
    expect(pull?.body).toContain(SENTRY_LINK);
    expect(pull?.body).toContain('cart.total() reads `price` of an item removed meanwhile');
    expect(pull?.body).toContain('**Confidence:** high');
    expect(pull?.body).toContain('| test | failed | passed |');
    expect(pull?.body).toContain('1,000 input and 200 output tokens, $0.02');
    expect(pull?.body).toContain(`investigate run \`${runId}\``);
    expect(
      github.state.repositories.get('acme/shop')?.refs.get('refs/heads/ralph/fix/ab12cd34'),
    ).toMatch(/^c0ffee/);
    expect(await records.get(runId, TASK)).toMatchObject({
      state: 'opened',
      number: 8,
      draft: true,
    });
    expect(await storedOutcome(runId)).toMatchObject({
      outcome: 'opened',
      pullRequest: { number: 8, draft: true },
    });
  });

  it('opens no second pull request when the step runs again', async () => {
    // Prepare
    const runId = await investigateRun(makeInvestigationResult());
    const first = await openFixPullRequest(depsOf(), { runId, iteration: 1 });

    // Act
    const second = await openFixPullRequest(depsOf(), { runId, iteration: 1 });

    // Assess
    expect(second).toEqual(first);
    expect(pullsOf()).toHaveLength(1);
    expect(pullPosts()).toHaveLength(1);
  });

  it('goes on from a pending record whose pull request GitHub already opened (422 already exists)', async () => {
    // Prepare: the first attempt opened it, and its answer was lost; the record stayed pending
    const runId = await investigateRun(makeInvestigationResult());
    github.failNext(1, 'server-error', {
      method: 'POST',
      pathIncludes: '/pulls',
      afterHandling: true,
    });
    const deps = depsOf({
      codeHost: codeHostAt(github.url, { kind: 'token', token: TOKEN }, { maxTries: 1 }),
    });
    await expect(openFixPullRequest(deps, { runId, iteration: 1 })).rejects.toThrow(TransientError);
    expect(await records.get(runId, TASK)).toMatchObject({ state: 'pending' });

    // Act: the state machine's retry
    const retried = await openFixPullRequest(depsOf(), { runId, iteration: 1 });

    // Assess
    expect(retried).toMatchObject({ outcome: 'opened', number: 8 });
    expect(pullsOf()).toHaveLength(1);
    expect(pullPosts().map((request) => request.status)).toEqual([502, 422]);
  });

  it('rides out GitHub 5xx answers with its retries and opens one pull request', async () => {
    // Prepare
    const runId = await investigateRun(makeInvestigationResult());
    github.failNext(1, 'server-error', { pathIncludes: '/git/refs' });
    github.failNext(1, 'server-error', { method: 'POST', pathIncludes: '/pulls' });

    // Act
    const result = await openFixPullRequest(depsOf(), { runId, iteration: 1 });

    // Assess
    expect(result.outcome).toBe('opened');
    expect(pullsOf()).toHaveLength(1);
    expect(pullPosts().map((request) => request.status)).toEqual([502, 201]);
  });

  it('falls back to a ready pull request where drafts are not supported, as configured', async () => {
    // Prepare
    const free = { owner: 'acme', name: 'free' };
    const runId = await investigateRun(makeInvestigationResult(), { repo: free });

    // Act
    const result = await openFixPullRequest(depsOf(), { runId, iteration: 1 });

    // Assess
    expect(result.outcome).toBe('opened');
    expect(pullsOf('free')).toMatchObject([{ draft: false }]);
    expect(await records.get(runId, TASK)).toMatchObject({ state: 'opened', draft: false });
  });

  it('opens none where drafts are not supported and the settings refuse a ready one', async () => {
    // Prepare
    const free = { owner: 'acme', name: 'free' };
    const runId = await investigateRun(makeInvestigationResult(), {
      repo: free,
      settings: { ifDraftUnsupported: 'refuse' },
    });

    // Act
    const result = await openFixPullRequest(depsOf(), { runId, iteration: 1 });

    // Assess
    expect(result).toMatchObject({
      outcome: 'refused',
      reason: expect.stringMatching(/draft pull requests are not supported/),
    });
    expect(pullsOf('free')).toHaveLength(0);
    expect(await records.get(runId, TASK)).toMatchObject({ state: 'refused' });
  });

  it('refuses at the cap of open pull requests from ralph, with the reason', async () => {
    // Prepare: one fix of another run is open already; the cap is 1
    const other = await investigateRun(
      makeInvestigationResult({ fix: { branch: 'ralph/fix/other', commit: 'd'.repeat(40) } }),
    );
    await openFixPullRequest(depsOf(), { runId: other, iteration: 1 });
    const runId = await investigateRun(makeInvestigationResult(), {
      settings: { maxOpenPullRequests: 1 },
    });

    // Act
    const result = await openFixPullRequest(depsOf(), { runId, iteration: 1 });

    // Assess
    expect(result).toMatchObject({
      outcome: 'refused',
      reason: expect.stringMatching(/already has 1 open pull request.*cap is 1/),
    });
    expect(pullsOf()).toHaveLength(1);
    expect(
      github.state.repositories.get('acme/shop')?.refs.has('refs/heads/ralph/fix/ab12cd34'),
    ).toBe(false);
    expect(await storedOutcome(runId)).toMatchObject({
      outcome: 'refused',
      verdict: 'fix-verified',
    });
  });

  it('comments the analysis of an error without a fix on the configured issue, once', async () => {
    // Prepare
    const noFix = makeInvestigationResult({
      verdict: 'no-fix',
      summary: 'the price is removed by another service',
      passes: [
        makePass({ changedFiles: [], analysis: { ...makePass().analysis!, confidence: 'low' } }),
        makePass({ pass: 2, changedFiles: [] }),
      ],
      chosenPass: 2,
      fix: undefined,
    });
    const runId = await investigateRun(noFix, { settings: { commentOnIssue: 7 } });

    // Act
    const first = await openFixPullRequest(depsOf(), { runId, iteration: 1 });
    const again = await openFixPullRequest(depsOf(), { runId, iteration: 1 });

    // Assess
    expect(first).toEqual(again);
    expect(first).toMatchObject({
      outcome: 'not-fixed',
      reason: 'no pass made a fix: the price is removed by another service',
    });
    const comments = github.state.repositories.get('acme/shop')?.comments ?? [];
    expect(comments).toHaveLength(1);
    expect(comments[0]).toMatchObject({ issueNumber: 7 });
    expect(comments[0]?.body).toContain('2 analysis passes');
    expect(pullsOf()).toHaveLength(0);
    expect(await storedOutcome(runId)).toMatchObject({
      outcome: 'not-fixed',
      comment: { issueNumber: 7 },
    });
  });

  it('does nothing on a run that is not an investigate run', async () => {
    // Prepare
    const runId = nextRunId('fixpr');
    await runs.createRun(makeRun({ runId }), []);

    // Act
    const result = await openFixPullRequest(depsOf(), { runId, iteration: 1 });

    // Assess
    expect(result).toEqual({
      outcome: 'skipped',
      reason: `run ${runId} is not an investigate run`,
    });
    expect(github.state.requests).toHaveLength(0);
  });

  it('ends the run with its report: the pull request opened, once', async () => {
    // Prepare
    const runId = await investigateRun(makeInvestigationResult());
    await openFixPullRequest(depsOf(), { runId, iteration: 1 });

    // Act
    await finalizeRun(depsOf(), { runId, segment: 1, action: 'complete', reason: 'done' });
    await finalizeRun(depsOf(), { runId, segment: 1, action: 'complete', reason: 'done' });

    // Assess
    const key = artefactKeys.runArtefact(runId, 'investigation-report.json');
    const report = InvestigationReportSchema.parse(JSON.parse(await artefacts.getText(key)));
    expect(report).toMatchObject({
      runId,
      errorsAnalysed: 1,
      pullRequestsOpened: [{ taskId: TASK, number: 8 }],
      errors: [{ taskId: TASK, verdict: 'fix-verified', confidence: 'high' }],
    });
  });

  it('concludes the error group its run is investigating: fixed, with the pull request', async () => {
    // Prepare: the group as the batch's close left it, investigated by this run
    const runId = await investigateRun(makeInvestigationResult());
    const key = { source: 'sentry' as const, fingerprint: 'ab12cd34ef' };
    const stored = await incidents.getGroup(key);
    const group = ErrorGroupSchema.parse({ ...errorGroup(), runId, version: stored?.version ?? 1 });
    await incidents.saveGroup(group, stored?.version);

    // Act
    const result = await openFixPullRequest(depsOf(), { runId, iteration: 1 });

    // Assess
    expect(result.outcome).toBe('opened');
    expect(await incidents.getGroup(key)).toMatchObject({
      status: 'fixed',
      statusReason: `draft pull request #${(result as { number: number }).number}`,
      pullRequest: { number: (result as { number: number }).number },
      runId,
    });
  });

  it('gives the group up with the reason when there is no fix, and leaves one another run took up', async () => {
    // Prepare
    const noFix = makeInvestigationResult({ verdict: 'no-fix', fix: undefined });
    const runId = await investigateRun(noFix);
    const key = { source: 'sentry' as const, fingerprint: 'ab12cd34ef' };
    const save = async (owner: string) => {
      const stored = await incidents.getGroup(key);
      const group = ErrorGroupSchema.parse({
        ...errorGroup(),
        runId: owner,
        version: stored?.version ?? 1,
      });
      await incidents.saveGroup(group, stored?.version);
    };
    await save('another-run');

    // Act: another run's group is left alone; this run's is given up
    await openFixPullRequest(depsOf(), { runId, iteration: 1 });
    const untouched = await incidents.getGroup(key);
    await save(runId);
    await openFixPullRequest(depsOf(), { runId, iteration: 1 });

    // Assess
    expect(untouched).toMatchObject({ status: 'investigating', runId: 'another-run' });
    const given = await incidents.getGroup(key);
    expect(given?.status).toBe('given_up');
    expect(given?.statusReason).toMatch(/\S/);
    expect(given?.pullRequest).toBeUndefined();
  });
});

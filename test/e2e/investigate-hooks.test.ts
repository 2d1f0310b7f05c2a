/**
 * Error-triggered runs, end to end on this machine: `ralph serve` as a process of its own
 * (hook secrets from hooks.json, the code host from RALPH_GITHUB_API_URL and
 * RALPH_GITHUB_TOKEN: the GitHub double on loopback), routes saved with `ralph projects set`
 * to scratch repositories made from the investigate example's app, the example's scripted
 * investigating agent (a stand-in, not a model; its behaviour switched per route through
 * `config.agent.env`) and the app's own test as the gate.
 *
 * A signed Sentry `issue.created` delivery (`ralph hooks send`) → an investigate run → its
 * end: a draft pull request on the double with the analysis, or, for a fix that stays
 * failing, none and the report says why; `ralph show RUN` shows the report. New Relic's
 * delivery through the server, CloudWatch alarms in both shapes through the alarm
 * function's handler on the local intake (AWS invokes that function itself), and an alarm
 * posted signed (SigV4) to the server's `POST /hooks/cloudwatch`, each start a run.
 */
import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { Logger } from '@aws-lambda-powertools/logger';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makeAlarmEventsHandler } from '../../lambdas/handlers/alarm-events.js';
import type { HookAnswer } from '../../lambdas/core/schemas/hook-answer.js';
import type { InvestigationReport } from '../../lambdas/core/schemas/investigation-report.js';
import type { ProjectRouteBody } from '../../lambdas/core/schemas/project-route.js';
import type { RunRecord } from '../../lambdas/core/schemas/run.js';
import { startGitHubDouble, type GitHubDouble } from '../../local/github-double/server.js';
import { localIntake } from '../../local/local-intake.js';
import { openLocalStack, type LocalStack } from '../../local/local-stack.js';
import { jsonOf, useCliScratch } from '../support/cli.js';
import { HOOK_FIXTURES } from '../support/hook-fixtures.js';
import {
  EXAMPLE_SENTRY_ISSUE,
  exampleTemplateFiles,
  SCRIPTED_INVESTIGATOR,
} from '../support/investigate-example.js';
import { startServeProcess, type ServeProcess } from '../support/serve-process.js';

const scratch = useCliScratch('ralph-investigate-e2e-');
const GITHUB_TOKEN = 'ghs_investigateEndToEnd';
const SENTRY_SECRET = 'local-sentry-client-secret';
const NEW_RELIC_TOKEN = 'local-new-relic-token';

/** The Sentry projects (one route, one repository each) and the agent's switch for each. */
const SCENARIOS = {
  found: {},
  'second-pass': { INVESTIGATOR_FIRST_PASS: 'low' },
  corrected: { INVESTIGATOR_FIX: 'wrong-then-right' },
  'stays-failing': { INVESTIGATOR_FIX: 'wrong' },
} satisfies Record<string, Record<string, string>>;
type Scenario = keyof typeof SCENARIOS;

let github: GitHubDouble;
let server: ServeProcess;
let stack: LocalStack;
/** Each Sentry scenario's run id, its delivery sent before the tests (they run at once). */
const sentryRuns = new Map<Scenario, string>();

beforeAll(async () => {
  github = await startGitHubDouble({
    tokens: [GITHUB_TOKEN],
    repositories: Object.keys(SCENARIOS).map((name) => ({ owner: 'acme', name })),
  });
  await writeFile(
    join(scratch.dataDir, 'hooks.json'),
    JSON.stringify({
      sentry: { clientSecret: SENTRY_SECRET },
      newrelic: { kind: 'bearer', token: NEW_RELIC_TOKEN },
    }),
  );
  for (const [project, env] of Object.entries(SCENARIOS))
    await setRoute(project, { kind: 'sentry-project', key: project }, env);
  await setRoute('alerts', { kind: 'newrelic-policy', key: 'Golden Signals' });
  await setRoute('alarm-events', { kind: 'cloudwatch-alarm', key: 'ServerCpuTooHigh' });
  await setRoute('alarm-topic', { kind: 'cloudwatch-alarm', key: 'ShopCpuTooHigh' });
  await setRoute('alarm-posted', { kind: 'cloudwatch-alarm', key: 'CheckoutErrors' });
  server = await startServeProcess(scratch.dataDir, {
    RALPH_GITHUB_API_URL: github.url,
    RALPH_GITHUB_TOKEN: GITHUB_TOKEN,
  });
  stack = await openLocalStack({ dataDir: scratch.dataDir });
  for (const [index, project] of (Object.keys(SCENARIOS) as Scenario[]).entries())
    sentryRuns.set(project, await sendSentryIssue(project, 5000 + index));
}, 120_000);

afterAll(async () => {
  await server?.stop();
  await stack?.close();
  await github?.close();
});

/** A route to a fresh copy of the example's app, its test the gate, the scripted agent. */
async function setRoute(
  project: string,
  match: ProjectRouteBody['matches'][number],
  env: Record<string, string> = {},
) {
  const route: ProjectRouteBody = {
    matches: [match],
    repo: await scratch.repo(await exampleTemplateFiles()),
    codeHost: { owner: 'acme', name: project },
    config: {
      agent: { command: `node ${SCRIPTED_INVESTIGATOR}`, timeoutSeconds: 60, env },
      gates: [{ name: 'test', command: 'node --test', blocking: true, timeoutSeconds: 60 }],
    },
    investigate: { batchWindowSeconds: 0 },
  };
  const file = join(scratch.dataDir, `${project}.route.json`);
  await writeFile(file, JSON.stringify(route));
  const set = await scratch.ralph('projects', 'set', project, file);
  expect(set.exitCode, set.stderr).toBe(0);
}

/** The example's recorded issue, for Sentry project `project` and an issue id of its own. */
async function sendSentryIssue(project: string, issueId: number): Promise<string> {
  const payload = (await readFile(EXAMPLE_SENTRY_ISSUE, 'utf8'))
    .replace('"slug": "shop"', `"slug": "${project}"`)
    .replace('"1170820242"', `"${issueId}"`);
  const file = join(scratch.dataDir, `${project}.issue.json`);
  await writeFile(file, payload);
  return runIdOf(
    await scratch.ralph(
      'hooks',
      ...['send', 'sentry', file, '--secret', SENTRY_SECRET],
      ...['--endpoint', server.endpoint, '--json'],
    ),
  );
}

function runIdOf(sent: Awaited<ReturnType<typeof scratch.ralph>>): string {
  expect(sent.exitCode, sent.stderr).toBe(0);
  return runIdIn(jsonOf<{ status: number; body: HookAnswer }>(sent).body);
}

/** The run a recorded delivery's batch (closed at once: no window) started. */
function runIdIn(answer: HookAnswer): string {
  expect(answer).toMatchObject({ outcome: 'recorded', events: [{ outcome: 'queued' }] });
  const runId = answer.outcome === 'recorded' ? answer.events[0]?.runId : undefined;
  if (runId === undefined) throw new Error(`no run in ${JSON.stringify(answer)}`);
  return runId;
}

/** The run once it has ended (this process's stack shares the data dir's store). */
async function runEnded(runId: string): Promise<RunRecord> {
  for (let waited = 0; waited < 90_000; waited += 250) {
    const run = await stack.deps.runs.getRun(runId);
    if (run !== undefined && run.status !== 'running') return run;
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
  throw new Error(`run ${runId} did not end`);
}

/** `ralph show RUN --json`'s report, once the run has ended. */
async function reportOf(scenario: Scenario): Promise<InvestigationReport> {
  const runId = sentryRuns.get(scenario) ?? '';
  expect((await runEnded(runId)).status).toBe('completed');
  const shown = jsonOf<{ investigationReport: InvestigationReport | null }>(
    await scratch.ralph('show', runId, '--json'),
  );
  if (shown.investigationReport === null) throw new Error(`run ${runId} has no report`);
  return shown.investigationReport;
}

const pullsOf = (repository: Scenario) =>
  github.state.repositories.get(`acme/${repository}`)?.pulls ?? [];

describe('A Sentry issue delivery to ralph serve', () => {
  it('ends in one draft pull request on ralph/fix/<short> with the analysis, and the report', async () => {
    // Act
    const report = await reportOf('found');

    // Assess
    const [error] = report.errors;
    expect(report).toMatchObject({ projectId: 'found', errorsAnalysed: 1, secondPasses: 0 });
    expect(error).toMatchObject({ verdict: 'fix-verified', confidence: 'high', passes: 1 });
    const pulls = pullsOf('found');
    expect(pulls).toHaveLength(1);
    const [pull] = pulls;
    expect(pull).toMatchObject({ draft: true, base: 'main' });
    expect(pull?.head).toMatch(/^ralph\/fix\/[0-9a-z]+$/);
    expect(pull?.body).toContain('## Root cause');
    expect(pull?.body).toContain(
      'total (src/cart.mjs:4) reads discount.percent, but callers pass no discount',
    );
    expect(pull?.body).toContain('**Confidence:** high');
    expect(error?.pullRequest).toEqual({
      number: pull?.number,
      htmlUrl: `${github.url}/acme/found/pull/${pull?.number}`,
      draft: true,
    });
    const shown = await scratch.ralph('show', sentryRuns.get('found') ?? '');
    expect(shown.stdout).toContain('1 of 1 errors analysed');
    expect(shown.stdout).toContain(`#${pull?.number} ${error?.pullRequest?.htmlUrl} (draft)`);
  });

  it('runs a second pass after a low-confidence first pass without a fix, and that one finds it', async () => {
    // Act
    const report = await reportOf('second-pass');

    // Assess
    expect(report.secondPasses).toBe(1);
    expect(report.errors[0]).toMatchObject({
      verdict: 'fix-verified',
      confidence: 'high',
      passes: 2,
      secondPass: true,
    });
    expect(pullsOf('second-pass')).toMatchObject([{ draft: true }]);
    expect(pullsOf('second-pass')[0]?.body).toContain('**Confidence:** high');
  });

  it('corrects once a fix that fails the gates, and opens the pull request for the corrected one', async () => {
    // Act
    const report = await reportOf('corrected');

    // Assess
    expect(report.corrections).toEqual({ attempted: 1, succeeded: 1 });
    expect(report.errors[0]).toMatchObject({
      verdict: 'fix-verified',
      correction: { attempted: true, succeeded: true },
    });
    expect(pullsOf('corrected')).toMatchObject([{ draft: true }]);
  });

  it('opens no pull request for a fix still failing after its correction, and the report says why', async () => {
    // Act
    const report = await reportOf('stays-failing');

    // Assess
    expect(report.corrections).toEqual({ attempted: 1, succeeded: 0 });
    expect(report.pullRequestsOpened).toEqual([]);
    expect(report.errors[0]).toMatchObject({
      verdict: 'fix-failed-gates',
      correction: { attempted: true, succeeded: false },
      whyNoPullRequest: 'the fix broke test, and the correction did not mend it',
    });
    expect(pullsOf('stays-failing')).toEqual([]);
    const shown = await scratch.ralph('show', sentryRuns.get('stays-failing') ?? '');
    expect(shown.stdout).toContain('fix-failed-gates');
  });
});

describe('Other senders start runs through the same intake', () => {
  it('a New Relic workflow delivery with its bearer token', async () => {
    // Act
    const runId = runIdOf(
      await scratch.ralph(
        'hooks',
        ...['send', 'newrelic', `${HOOK_FIXTURES}newrelic/default-template.json`],
        ...['--token', NEW_RELIC_TOKEN, '--endpoint', server.endpoint, '--json'],
      ),
    );

    // Assess
    const run = await runEnded(runId);
    expect(run.investigation).toMatchObject({
      projectId: 'alerts',
      errors: [{ source: 'newrelic', fingerprint: expect.any(String) }],
    });
  });

  it('CloudWatch alarms, as EventBridge and as SNS deliver them, through the alarm function', async () => {
    // Prepare: the local intake over this process's stack, as `ralph serve` builds it.
    const intake = localIntake(stack, {
      dataDir: scratch.dataDir,
      onCloseFailed: (_batch, error) => {
        throw error;
      },
    });
    const handler = makeAlarmEventsHandler(() => intake.deps, new Logger({ logLevel: 'SILENT' }));
    const fixture = async (name: string) => readFile(`${HOOK_FIXTURES}cloudwatch/${name}`, 'utf8');
    const snsAlarm = (await fixture('sns-alarm.json')).replaceAll(
      'ServerCpuTooHigh',
      'ShopCpuTooHigh',
    );

    try {
      // Act
      const fromRule = await handler(JSON.parse(await fixture('eventbridge-alarm.json')));
      const fromTopic = await handler(JSON.parse(snsAlarm));

      // Assess
      const runs = await Promise.all(
        [fromRule, fromTopic].map((answer) => runEnded(runIdIn(answer as HookAnswer))),
      );
      expect(runs.map((run) => run.investigation?.projectId)).toEqual([
        'alarm-events',
        'alarm-topic',
      ]);
      expect(runs.map((run) => run.investigation?.errors[0]?.source)).toEqual([
        'cloudwatch',
        'cloudwatch',
      ]);
    } finally {
      await intake.stop();
    }
  });

  it('a CloudWatch alarm posted to ralph serve with ralph hooks send, signed with its credential', async () => {
    // Prepare: another alarm (name and ARN), routed to its own project
    const event = (await readFile(`${HOOK_FIXTURES}cloudwatch/eventbridge-alarm.json`, 'utf8'))
      .replaceAll('ServerCpuTooHigh', 'CheckoutErrors')
      .replace(/"id": "[^"]+"/, '"id": "checkout-errors-1"');
    const file = join(scratch.dataDir, 'checkout-alarm.json');
    await writeFile(file, event);

    // Act
    const runId = runIdOf(
      await scratch.ralph(
        'hooks',
        ...['send', 'cloudwatch', file, '--endpoint', server.endpoint, '--json'],
      ),
    );

    // Assess
    const run = await runEnded(runId);
    expect(run.investigation).toMatchObject({
      projectId: 'alarm-posted',
      errors: [{ source: 'cloudwatch', fingerprint: expect.stringContaining('CheckoutErrors') }],
    });
  });
});

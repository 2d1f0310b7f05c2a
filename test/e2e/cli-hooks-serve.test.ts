/**
 * Error-triggered runs end to end on this machine: a route saved with `ralph projects set`,
 * `ralph serve` as a process of its own (secrets from hooks.json), `ralph hooks send sentry`
 * posting the recorded issue payload signed as Sentry does → after the batch's window an
 * investigate run exists with the error group as its task. And a batch left open by a
 * server that stopped is closed by the next start. The runs' outcomes are not asserted
 * (the investigate iteration is another step's): their records, investigation and task are.
 */
import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { createDynamoDocumentClient } from '../../lambdas/adapters/aws-clients.js';
import { DynamoIncidentStore } from '../../lambdas/adapters/dynamodb/incident-store.js';
import { investigateTaskId } from '../../lambdas/core/incidents/short-fingerprint.js';
import type { HookAnswer } from '../../lambdas/core/schemas/hook-answer.js';
import type { RunRecord } from '../../lambdas/core/schemas/run.js';
import { EMULATOR_CREDENTIALS, openLocalStack, type LocalStack } from '../../local/local-stack.js';
import { HOOK_FIXTURES } from '../support/hook-fixtures.js';
import { jsonOf, useCliScratch } from '../support/cli.js';
import { startServeProcess } from '../support/serve-process.js';

const scratch = useCliScratch('ralph-hooks-serve-');
const secret = 'local-sentry-client-secret';
const fixture = `${HOOK_FIXTURES}sentry/issue.created.json`;

let stack: LocalStack | undefined;
afterAll(async () => stack?.close());

/** `ralph serve` started on the scratch data dir; resolves once it has written serve.json. */
const serve = () => startServeProcess(scratch.dataDir);

/** The run once init-run created it (the local stack of this process shares the data dir's store). */
async function runCreated(runId: string): Promise<RunRecord> {
  stack ??= await openLocalStack({ dataDir: scratch.dataDir });
  for (let waited = 0; waited < 60_000; waited += 250) {
    const run = await stack.deps.runs.getRun(runId);
    if (run) return run;
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
  throw new Error(`run ${runId} was not created`);
}

async function setRoute(project: string, repo: string, batchWindowSeconds: number) {
  const file = join(scratch.dataDir, `${project}.json`);
  await writeFile(
    file,
    JSON.stringify({
      matches: [{ kind: 'sentry-project', key: project }],
      repo,
      investigate: { batchWindowSeconds },
    }),
  );
  const set = await scratch.ralph('projects', 'set', project, file);
  expect(set.exitCode, set.stderr).toBe(0);
}

async function send(endpoint: string, file = fixture) {
  const sent = await scratch.ralph(
    'hooks',
    'send',
    'sentry',
    file,
    '--secret',
    secret,
    '--endpoint',
    endpoint,
    '--json',
  );
  expect(sent.exitCode, sent.stderr).toBe(0);
  return jsonOf<{ status: number; body: HookAnswer }>(sent);
}

describe('ralph serve takes the hooks', () => {
  it('a Sentry issue delivery becomes an investigate run with its group as the task', async () => {
    // Prepare
    await writeFile(
      join(scratch.dataDir, 'hooks.json'),
      JSON.stringify({ sentry: { clientSecret: secret } }),
    );
    await setRoute('front-end', await scratch.repo({ 'README.md': '# app\n' }), 1);
    const server = await serve();

    try {
      // Act
      const sent = await send(server.endpoint);

      // Assess
      expect(sent.status).toBe(202);
      expect(sent.body).toMatchObject({
        outcome: 'recorded',
        events: [{ outcome: 'queued', status: 'pending' }],
      });
      const event = sent.body.outcome === 'recorded' ? sent.body.events[0]! : undefined;
      const run = await runCreated(event!.runId!);
      expect(run.investigation).toMatchObject({
        projectId: 'front-end',
        batchId: event!.batchId,
        errors: [
          { source: 'sentry', fingerprint: 'issue:1170820242', taskId: investigateTaskId(event!) },
        ],
      });
      expect((await stack!.deps.runs.listTasks(run.runId)).map((task) => task.taskId)).toEqual([
        investigateTaskId(event!),
      ]);
      // The same bytes again: the same signature, a replay, answered and not counted.
      const replay = await send(server.endpoint);
      expect(replay).toMatchObject({ status: 200, body: { outcome: 'duplicate' } });
    } finally {
      await server.stop();
    }
  });

  it('closes at its next start a batch left open when the server stopped', async () => {
    // Prepare: a long window, the server stopped before it ends, then the window over.
    await setRoute('checkout', await scratch.repo({ 'README.md': '# shop\n' }), 3600);
    const payload = (await readFile(fixture, 'utf8'))
      .replace('"slug": "front-end"', '"slug": "checkout"')
      .replace('"1170820242"', '"2170820242"');
    const file = join(scratch.dataDir, 'checkout-issue.json');
    await writeFile(file, payload);
    let server = await serve();
    const sent = await send(server.endpoint, file);
    await server.stop();
    const event = sent.body.outcome === 'recorded' ? sent.body.events[0]! : undefined;
    stack ??= await openLocalStack({ dataDir: scratch.dataDir });
    const client = createDynamoDocumentClient({
      endpoint: stack.endpoints.dynamoEndpoint,
      region: stack.endpoints.region,
      credentials: EMULATOR_CREDENTIALS,
    });
    const incidents = new DynamoIncidentStore({ client, tableName: stack.endpoints.tableName });
    const batch = (await incidents.getBatch('checkout', event!.batchId!))!;
    await incidents.saveBatch(
      { ...batch, closesAt: new Date(Date.now() - 1000).toISOString() },
      batch.version,
    );

    // Act
    server = await serve();
    try {
      const run = await runCreated(event!.runId!);

      // Assess
      expect(run.investigation?.batchId).toBe(event!.batchId);
      expect((await incidents.getBatch('checkout', event!.batchId!))?.status).toBe('closed');
    } finally {
      await server.stop();
      client.destroy();
    }
  });
});

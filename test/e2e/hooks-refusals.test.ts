/**
 * The hook routes' bad inputs through real HTTP on `ralph serve`'s server (in memory, the
 * senders' secrets in its hooks.json): each refusal says why and writes nothing; a replay
 * counts once; the same error fired 50 times in a minute, and two deliveries of it racing,
 * make one batch and one run; the store out of reach is 503 and starts nothing.
 */
import { randomUUID } from 'node:crypto';
import { beforeAll, describe, expect, it } from 'vitest';
import { createDynamoDocumentClient } from '../../lambdas/adapters/aws-clients.js';
import { DynamoIncidentStore } from '../../lambdas/adapters/dynamodb/incident-store.js';
import { nodeHookDigest } from '../../lambdas/adapters/hook-digest.js';
import { startApiServer } from '../../local/api-server/api-server.js';
import { localApiEntry } from '../../local/local-api.js';
import { EMULATOR_CREDENTIALS } from '../../local/local-stack.js';
import type { SentryResource } from '../../lambdas/core/shared/hook-auth/delivery.js';
import { sentryDeliveryHeaders } from '../../lambdas/core/shared/hook-auth/delivery.js';
import { useApiServer, type ApiAnswer } from '../support/api-server.js';
import { hookFixtureJson } from '../support/hook-fixtures.js';
import { waitUntil } from '../support/local-runs.js';

const CLIENT_SECRET = 'sentry-secret-of-this-server';
const NEW_RELIC_TOKEN = 'new-relic-token-of-this-server';
const api = useApiServer({
  hooks: {
    sentry: { clientSecret: CLIENT_SECRET },
    newrelic: { kind: 'bearer', token: NEW_RELIC_TOKEN },
  },
});

/** Sentry's recorded issue.created for project `project`'s issue `issueId`. */
function issueBody(project: string, issueId: string, count = 1): string {
  const payload = hookFixtureJson<{ data: { issue: Record<string, unknown> } }>(
    'sentry/issue.created.json',
  );
  payload.data.issue.id = issueId;
  payload.data.issue.count = String(count);
  payload.data.issue.project = { id: `${project}-id`, name: project, platform: '', slug: project };
  return JSON.stringify(payload);
}

/** POSTs `body` to /hooks/sentry as Sentry would (signed with `secret`, at `now`). */
function sendSentry(
  body: string,
  options: { secret?: string; now?: Date; resource?: string; drop?: string } = {},
): Promise<ApiAnswer> {
  const headers = sentryDeliveryHeaders({
    body: Buffer.from(body),
    clientSecret: options.secret ?? CLIENT_SECRET,
    resource: (options.resource ?? 'issue') as SentryResource,
    now: options.now ?? new Date(),
    requestId: randomUUID(),
    digest: nodeHookDigest,
  });
  const sent = Object.fromEntries(
    Object.entries(headers)
      .map(([name, value]) => [name.toLowerCase(), value] as const)
      .filter(([name]) => name !== options.drop),
  );
  return api().call('POST', '/hooks/sentry', { rawBody: body, headers: sent, credential: false });
}

beforeAll(async () => {
  for (const [project, batchWindowSeconds] of [
    // Long enough for all 50 to land in the open batch, however slow the machine.
    ['storm', 120],
    ['race', 1],
    ['replay', 1],
  ] as const)
    expect(
      (
        await api().call('PUT', `/projects/${project}`, {
          body: {
            matches: [{ kind: 'sentry-project', key: project }],
            // Nothing here is meant to run to its end: a repository that is not there.
            repo: '/nonexistent/ralph-hooks-refusals',
            investigate: { batchWindowSeconds },
          },
        })
      ).status,
    ).toBe(200);
});

describe('hook refusals through real HTTP', () => {
  /** Sends and checks the refusal: its status, problem+json, and nothing stored. */
  async function refused(send: () => Promise<ApiAnswer>, status: number) {
    const before = await api().stored();
    const answer = await send();
    expect(answer.status, answer.text).toBe(status);
    expect(answer.headers['content-type']).toBe('application/problem+json');
    expect(await api().stored()).toEqual(before);
    return answer;
  }

  it('refuses a signature made with another secret, and none at all, with 401', async () => {
    const body = issueBody('storm', 'wrong-sig');
    const wrong = await refused(() => sendSentry(body, { secret: 'not-the-secret' }), 401);
    expect(wrong.json.detail).toMatch(/signature/i);
    const missing = await refused(() => sendSentry(body, { drop: 'sentry-hook-signature' }), 401);
    expect(missing.json.detail).toMatch(/Sentry-Hook-Signature/i);
  });

  it('refuses a delivery whose timestamp is over 5 minutes old with 401', async () => {
    const stale = new Date(Date.now() - 6 * 60_000);
    const answer = await refused(
      () => sendSentry(issueBody('storm', 'stale'), { now: stale }),
      401,
    );
    expect(answer.json.detail).toMatch(/old|timestamp/i);
  });

  it('refuses malformed JSON and an unknown resource with 400 naming what is wrong', async () => {
    const broken = await refused(() => sendSentry('{"action": "created", "data": '), 400);
    expect(broken.json.errors[0]).toMatch(/JSON/);
    const unknown = await refused(
      () => sendSentry(issueBody('storm', 'unknown-resource'), { resource: 'bogus' }),
      400,
    );
    expect(JSON.stringify(unknown.json)).toMatch(/issue.*event_alert|event_alert.*issue/);
  });

  it('refuses a New Relic delivery without its token with 401', async () => {
    await refused(
      () =>
        api().call('POST', '/hooks/newrelic', {
          rawBody: '{"issueId":"x","isCorrelated":"false"}',
          headers: { 'content-type': 'application/json', authorization: 'Bearer wrong' },
          credential: false,
        }),
      401,
    );
  });

  it('answers a replayed delivery 200 duplicate and counts it once', async () => {
    const body = issueBody('replay', 'replayed-1');
    const first = await sendSentry(body);
    const again = await sendSentry(body);
    expect(first.status).toBe(202);
    expect(again.status).toBe(200);
    expect(again.json).toMatchObject({ outcome: 'duplicate' });
    expect(first.json.events[0]).toMatchObject({ outcome: 'queued' });
    const { endpoints } = api().stack;
    const client = createDynamoDocumentClient({
      endpoint: endpoints.dynamoEndpoint,
      region: endpoints.region,
      credentials: EMULATOR_CREDENTIALS,
    });
    const incidents = new DynamoIncidentStore({ client, tableName: endpoints.tableName });
    expect(
      await incidents.getGroup({ source: 'sentry', fingerprint: 'issue:replayed-1' }),
    ).toMatchObject({ deliveries: 1 });
    client.destroy();
  });
});

describe('storms and races through real HTTP', () => {
  /** The investigate runs of `project`, once its batch has closed. */
  async function runsOf(project: string): Promise<string[]> {
    const { runs } = await api().stack.deps.runs.listRuns({ limit: 100 });
    return runs.filter((run) => run.investigation?.projectId === project).map((run) => run.runId);
  }

  it('makes one batch, so one run, of the same error fired 50 times in a minute', async () => {
    const answers = [];
    for (let sent = 1; sent <= 50; sent += 1)
      answers.push(await sendSentry(issueBody('storm', 'storm-1', sent)));
    expect(answers.every((answer) => answer.status === 202)).toBe(true);
    // The run is named when the batch opens: every delivery names the same one.
    const events = answers.map((answer) => answer.json.events[0]);
    expect(new Set(events.map((event) => event.runId)).size).toBe(1);
    expect(new Set(events.map((event) => event.batchId)).size).toBe(1);
    expect(events.slice(1).every((event) => event.outcome === 'repeat')).toBe(true);
  });

  it('makes one run of two deliveries of one error racing', async () => {
    const answers = await Promise.all([
      sendSentry(issueBody('race', 'race-1', 1)),
      sendSentry(issueBody('race', 'race-1', 2)),
    ]);
    expect(answers.map((answer) => answer.status)).toEqual([202, 202]);
    await waitUntil(async () => (await runsOf('race')).length > 0, { timeoutMs: 15_000 });
    expect(await runsOf('race')).toHaveLength(1);
    await api().idle();
  });

  it('answers 503 with Retry-After when the store cannot be reached, and starts no run', async () => {
    // Prepare: the same server's routes, their error groups on a store nothing answers for
    const { stack, hooks, credential, region } = api();
    const down = createDynamoDocumentClient({
      endpoint: 'http://127.0.0.1:1',
      region: stack.endpoints.region,
      credentials: EMULATOR_CREDENTIALS,
      maxAttempts: 2,
    });
    const incidents = new DynamoIncidentStore({
      client: down,
      tableName: stack.endpoints.tableName,
    });
    const server = await startApiServer({
      entry: localApiEntry(stack, { error: () => undefined }, { ...hooks!, incidents }),
      credential,
      region,
    });
    const runsBefore = (await stack.deps.runs.listRuns({ limit: 100 })).runs.length;
    const body = issueBody('race', 'store-down');

    try {
      // Act
      const headers = sentryDeliveryHeaders({
        body: Buffer.from(body),
        clientSecret: CLIENT_SECRET,
        resource: 'issue',
        now: new Date(),
        requestId: randomUUID(),
        digest: nodeHookDigest,
      });
      const answer = await fetch(`${server.url}/hooks/sentry`, { method: 'POST', headers, body });

      // Assess
      expect(answer.status).toBe(503);
      expect(answer.headers.get('retry-after')).not.toBeNull();
      expect((await stack.deps.runs.listRuns({ limit: 100 })).runs).toHaveLength(runsBefore);
    } finally {
      await server.close();
      down.destroy();
    }
  });
});

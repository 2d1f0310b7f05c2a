/**
 * POST /hooks/sentry and /hooks/newrelic through the router, as API Gateway invokes the
 * hooks function, over the emulators: every refusal writes nothing; a store out of reach is
 * 503 and starts nothing.
 */
import { ScanCommand } from '@aws-sdk/lib-dynamodb';
import { describe, expect, it } from 'vitest';
import { createDynamoDocumentClient } from '../../lambdas/adapters/aws-clients.js';
import { DynamoIncidentStore } from '../../lambdas/adapters/dynamodb/incident-store.js';
import { nodeHookDigest } from '../../lambdas/adapters/hook-digest.js';
import { apiRouter } from '../../lambdas/api/router.js';
import { hookRoutes, type HookRouteDeps } from '../../lambdas/api/routes/hooks.js';
import { sentryDeliveryHeaders } from '../../lambdas/core/shared/hook-auth/delivery.js';
import { apiGatewayEvent, lambdaContext } from '../../local/api-server/api-event.js';
import {
  unreachableConnection,
  useEmulatorStores,
  type EmulatorStores,
} from '../support/emulator-stores.js';
import { hookFixture } from '../support/hook-fixtures.js';
import { intakeHarness } from '../support/intake-deps.js';

const clientSecret = 'the-integration-client-secret';
const token = 'the-new-relic-token';

let stores: EmulatorStores;
useEmulatorStores((ready) => (stores = ready));

function hooksApi(overrides: Partial<HookRouteDeps> = {}) {
  const harness = intakeHarness(stores);
  // Sentry's timestamps are checked against this clock: the signer's, now.
  harness.at(new Date().toISOString());
  const deps: HookRouteDeps = {
    ...harness.deps,
    secrets: {
      sentryClientSecret: async () => clientSecret,
      newRelicCredential: async () => ({ kind: 'bearer', token }),
    },
    digest: nodeHookDigest,
    ...overrides,
  };
  return { harness, entry: apiRouter(hookRoutes(deps)) };
}

/** Posts `body` to `path` as API Gateway hands it over; base64 when `binary`. */
async function post(
  entry: ReturnType<typeof hooksApi>['entry'],
  path: string,
  body: string,
  headers: Record<string, string>,
) {
  const lower = Object.fromEntries(Object.entries(headers).map(([k, v]) => [k.toLowerCase(), v]));
  const event = apiGatewayEvent(
    {
      method: 'POST',
      url: new URL(`http://127.0.0.1${path}`),
      headers: lower,
      body: Buffer.from(body),
      sourceIp: '127.0.0.1',
    },
    new Date(),
  );
  const answer = await entry(event, lambdaContext(event.requestContext.requestId));
  return {
    status: answer.statusCode,
    json: JSON.parse(answer.body ?? '{}') as Record<string, unknown>,
  };
}

function signed(body: string, options: { secret?: string; resource?: string; at?: Date } = {}) {
  return sentryDeliveryHeaders({
    body: Buffer.from(body),
    clientSecret: options.secret ?? clientSecret,
    resource: (options.resource ?? 'issue') as 'issue',
    now: options.at ?? new Date(),
    requestId: 'req-1',
    digest: nodeHookDigest,
  });
}

/** Every item on the table: a refusal must not add one. */
async function items(): Promise<number> {
  const { Items } = await stores.dynamo.send(
    new ScanCommand({ TableName: stores.emulators.tableName }),
  );
  return Items?.length ?? 0;
}

describe('POST /hooks/sentry', () => {
  it('records a signed delivery: 202 with its group (unrouted: no route names it)', async () => {
    const { entry } = hooksApi();
    const body = hookFixture('sentry/issue.created.json');

    const answer = await post(entry, '/hooks/sentry', body, signed(body));

    expect(answer.status).toBe(202);
    expect(answer.json).toMatchObject({ outcome: 'recorded', events: [{ outcome: 'unrouted' }] });
  });

  it('refuses a wrong signature, a missing one and a stale timestamp with 401, writing nothing', async () => {
    const { entry } = hooksApi();
    const body = hookFixture('sentry/error.created.json');
    const before = await items();
    const { 'Sentry-Hook-Signature': _gone, ...unsigned } = signed(body);

    const answers = [
      await post(entry, '/hooks/sentry', body, signed(body, { secret: 'another secret' })),
      await post(entry, '/hooks/sentry', body, unsigned),
      await post(
        entry,
        '/hooks/sentry',
        body,
        signed(body, { at: new Date(Date.now() - 10 * 60_000) }),
      ),
    ];

    expect(answers.map((answer) => answer.status)).toEqual([401, 401, 401]);
    expect(answers[0]!.json.detail).toMatch(/does not match the body/);
    expect(answers[1]!.json.detail).toMatch(/missing Sentry-Hook-Signature/);
    expect(answers[2]!.json.detail).toMatch(/stale or replayed/);
    expect(await items()).toBe(before);
  });

  it('refuses malformed JSON and an unknown resource with 400 naming the known ones', async () => {
    const { entry } = hooksApi();
    const before = await items();
    const broken = '{"action": "created", "data": {';
    const strange = hookFixture('sentry/issue.created.json').replace('"created"', '"seen"');

    const malformed = await post(entry, '/hooks/sentry', broken, signed(broken));
    const unknown = await post(
      entry,
      '/hooks/sentry',
      strange,
      signed(strange, { resource: 'feedback' }),
    );

    expect(malformed.status).toBe(400);
    expect(unknown.status).toBe(400);
    expect(String(unknown.json.detail)).toMatch(
      /unknown resource "feedback"; known: installation, event_alert, issue/,
    );
    expect(await items()).toBe(before);
  });

  it('answers 503 when the store cannot be reached, and starts nothing', async () => {
    const down = createDynamoDocumentClient(unreachableConnection(stores.emulators));
    const { entry, harness } = hooksApi({
      incidents: new DynamoIncidentStore({ client: down, tableName: stores.emulators.tableName }),
    });
    const body = hookFixture('sentry/event_alert.triggered.json');

    const answer = await post(
      entry,
      '/hooks/sentry',
      body,
      signed(body, { resource: 'event_alert' }),
    );

    expect(answer.status).toBe(503);
    expect(harness.started).toEqual([]);
    down.destroy();
  });
});

describe('POST /hooks/newrelic', () => {
  it('takes its token; refuses another with 401; answers a replay 200 duplicate', async () => {
    const { entry } = hooksApi();
    const body = hookFixture('newrelic/default-template.json');
    const bearer = { 'Content-Type': 'application/json', Authorization: `Bearer ${token}` };

    const first = await post(entry, '/hooks/newrelic', body, bearer);
    const replay = await post(entry, '/hooks/newrelic', body, bearer);
    const forged = await post(entry, '/hooks/newrelic', body, {
      ...bearer,
      Authorization: 'Bearer guessed',
    });

    expect(first.status).toBe(202);
    expect(replay).toMatchObject({ status: 200, json: { outcome: 'duplicate' } });
    expect(forged.status).toBe(401);
  });
});

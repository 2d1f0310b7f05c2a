import { writeFile } from 'node:fs/promises';
import { createServer, type IncomingHttpHeaders } from 'node:http';
import { join } from 'node:path';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { nodeHookDigest } from '../../lambdas/adapters/hook-digest.js';
import { verifyNewRelicDelivery } from '../../lambdas/core/shared/hook-auth/newrelic.js';
import { verifySentryDelivery } from '../../lambdas/core/shared/hook-auth/sentry.js';
import { writeServeFile } from '../../local/api-server/serve-file.js';
import { checkSignature } from '../../local/api-server/signature-check.js';
import { listenOnLoopback, type Listening } from '../../local/loopback/listen.js';
import { jsonOf, useCliScratch } from '../support/cli.js';

const clientSecret = 'sentry-client-secret-of-the-receiver';
const token = 'new-relic-token-of-the-receiver';

/** What the receiver was sent, byte for byte. */
interface Received {
  readonly path: string;
  readonly headers: IncomingHttpHeaders;
  readonly body: Buffer;
}

/**
 * A receiver on loopback that records each request and answers as the hook routes will:
 * 401 when the sender's credential does not verify, else 202; `failNext` answers 503 first.
 */
interface Receiver extends Listening {
  readonly received: Received[];
  failNext(count: number): void;
}

async function startReceiver(): Promise<Receiver> {
  const received: Received[] = [];
  let failures = 0;
  const server = createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      const delivery = {
        path: request.url ?? '',
        headers: request.headers,
        body: Buffer.concat(chunks),
      };
      received.push(delivery);
      if (failures > 0) {
        failures -= 1;
        response.writeHead(503).end('busy');
        return;
      }
      void verdictOn(delivery, `http://${request.headers.host ?? '127.0.0.1'}`).then((verdict) => {
        response.writeHead(verdict.ok ? 202 : 401, { 'content-type': 'application/json' });
        response.end(JSON.stringify(verdict.ok ? { accepted: true } : { reason: verdict.reason }));
      });
    });
  });
  const listening = await listenOnLoopback(server);
  return {
    ...listening,
    received,
    failNext: (count) => {
      failures = count;
    },
  };
}

/** `ralph serve`'s credential, as its serve.json names it for the receiver. */
const SERVE_CREDENTIAL = {
  accessKeyId: 'RALPHSERVETEST',
  secretAccessKey: 'serve-secret-of-the-receiver',
};
const REGION = 'local-1';

async function verdictOn({ path, headers, body }: Received, origin: string) {
  if (path === '/hooks/cloudwatch') {
    const verdict = await checkSignature(
      {
        method: 'POST',
        url: new URL(path, origin),
        headers: headers as Record<string, string>,
        body,
      },
      SERVE_CREDENTIAL,
      REGION,
      new Date(),
    );
    return verdict.ok ? verdict : { ok: false as const, reason: verdict.reason };
  }
  if (path === '/hooks/sentry')
    return verifySentryDelivery(headers, body, {
      clientSecret,
      now: new Date(),
      digest: nodeHookDigest,
    });
  if (path === '/hooks/newrelic')
    return verifyNewRelicDelivery(headers, body, { kind: 'bearer', token }, nodeHookDigest);
  return { ok: true } as const;
}

// Sentry's issue webhook as its documentation shows it (trimmed), with spacing and a
// non-ASCII title, so only a byte-for-byte post verifies.
const SENTRY_ISSUE = `{
  "action": "created",
  "installation": { "uuid": "7a485448-a9e2-4c85-8a3c-4f44175783c9" },
  "data": {
    "issue": {
      "id": "1170820242",
      "shortId": "FRONT-END-9",
      "title": "Error: Unexpected token ‘<’ in café",
      "culprit": "?(runner)",
      "level": "error",
      "status": "unresolved",
      "project": { "id": "1", "name": "front-end", "slug": "front-end" }
    }
  },
  "actor": { "type": "application", "id": "sentry", "name": "Sentry" }
}
`;

const SNS_ALARM = JSON.stringify({
  Type: 'Notification',
  MessageId: '2f3e1a7c-0a1b-5c6d-8e9f-0123456789ab',
  TopicArn: 'arn:aws:sns:eu-west-1:123456789012:alarms',
  Subject: 'ALARM: "api-5xx" in EU (Ireland)',
  Message: JSON.stringify({ AlarmName: 'api-5xx', NewStateValue: 'ALARM' }),
  Timestamp: '2026-11-27T04:00:00.000Z',
});

describe('Command: ralph hooks send', () => {
  const scratch = useCliScratch('ralph-hooks-send-');
  let receiver: Receiver;
  const payload = (name: string) => join(scratch.dataDir, name);
  /** `ralph hooks send SOURCE FILE --endpoint <the receiver> ...rest`. */
  const send = (source: string, file: string, ...rest: string[]) =>
    scratch.ralph('hooks', 'send', source, payload(file), '--endpoint', receiver.url, ...rest);

  beforeAll(async () => {
    receiver = await startReceiver();
    // The receiver stands where `ralph serve` would: its serve.json names the credential.
    await writeServeFile(scratch.dataDir, {
      endpoint: receiver.url,
      region: REGION,
      ...SERVE_CREDENTIAL,
    });
    await writeFile(payload('issue.json'), SENTRY_ISSUE);
    await writeFile(payload('alarm.json'), SNS_ALARM);
    await writeFile(payload('newrelic.json'), '{"issueId":"abc","isCorrelated":"false"}');
    await writeFile(payload('mystery.json'), '{"action":"created","data":{}}');
    await writeFile(payload('broken.json'), '{"action":');
  });
  afterAll(async () => {
    await receiver.close();
  });
  beforeEach(() => {
    receiver.received.length = 0;
  });

  it('signs a Sentry payload so that the verifier accepts it, and another secret would not', async () => {
    // Act
    const result = await send('sentry', 'issue.json', '--secret', clientSecret);
    // Assess
    expect(result.exitCode, result.stderr).toBe(0);
    expect(result.stdout).toContain(`POST ${receiver.url}/hooks/sentry → 202`);
    const [delivery] = receiver.received;
    expect(delivery?.body.toString('utf8')).toBe(SENTRY_ISSUE);
    expect(delivery?.headers).toMatchObject({
      'content-type': 'application/json',
      'sentry-hook-resource': 'issue',
      'request-id': expect.stringMatching(/^[0-9a-f-]{36}$/),
      'sentry-hook-timestamp': expect.stringMatching(/^\d+$/),
    });
    const tampered = verifySentryDelivery(delivery!.headers, delivery!.body, {
      clientSecret: `${clientSecret}x`,
      now: new Date(),
      digest: nodeHookDigest,
    });
    expect(tampered).toMatchObject({ ok: false, status: 401 });
  });

  it('reports the refusal of a payload signed with the wrong secret, and does not retry it', async () => {
    const result = await send(
      'sentry',
      'issue.json',
      '--secret',
      'not-the-client-secret',
      '--json',
    );
    expect(result.exitCode).toBe(4);
    expect(jsonOf(result)).toEqual({
      url: `${receiver.url}/hooks/sentry`,
      status: 401,
      attempts: 1,
      body: { reason: expect.stringContaining('does not match the body') },
    });
    expect(receiver.received).toHaveLength(1);
  });

  it('retries a 5xx and says how many attempts it took', async () => {
    receiver.failNext(2);
    const result = await send('sentry', 'issue.json', '--secret', clientSecret);
    expect(result.exitCode, result.stderr).toBe(0);
    expect(result.stdout).toContain('→ 202 after 3 attempts');
    expect(receiver.received).toHaveLength(3);
  });

  it('sends a New Relic payload with its token, as a bearer token or in a named header', async () => {
    const bearer = await send('newrelic', 'newrelic.json', '--token', token);
    const named = await send(
      'newrelic',
      'newrelic.json',
      '--token',
      token,
      '--header',
      'X-Ralph-Token',
    );
    expect(bearer.exitCode, bearer.stderr).toBe(0);
    expect(receiver.received[0]?.headers.authorization).toBe(`Bearer ${token}`);
    // The receiver here expects a bearer token: the header alone is refused.
    expect(named.exitCode).toBe(4);
    expect(receiver.received[1]?.headers['x-ralph-token']).toBe(token);
  });

  it("posts a CloudWatch alarm's SNS envelope as SNS does, signed with ralph serve's credential", async () => {
    const result = await send('cloudwatch', 'alarm.json');
    expect(result.exitCode, result.stderr).toBe(0);
    expect(receiver.received[0]?.headers.authorization).toMatch(
      /^AWS4-HMAC-SHA256 Credential=RALPHSERVETEST\//,
    );
    expect(receiver.received[0]).toMatchObject({
      path: '/hooks/cloudwatch',
      headers: {
        'content-type': 'text/plain; charset=UTF-8',
        'x-amz-sns-message-type': 'Notification',
        'x-amz-sns-topic-arn': 'arn:aws:sns:eu-west-1:123456789012:alarms',
      },
    });
    expect(receiver.received[0]?.body.toString('utf8')).toBe(SNS_ALARM);
  });

  it('gives up on a receiver that never answers, after its bounded attempts', async () => {
    const closed = await startReceiver();
    await closed.close();
    // The later --endpoint wins: the closed port, not the receiver.
    const result = await send(
      'newrelic',
      'newrelic.json',
      '--token',
      token,
      '--endpoint',
      closed.url,
    );
    expect(result.exitCode).toBe(70);
    expect(result.stderr).toContain(`POST ${closed.url}/hooks/newrelic failed after 4 attempts`);
  });

  it.each([
    [['sentry', 'issue.json'], /sentry needs --secret/],
    [['sentry', 'issue.json', '--token', token], /--token does not apply to sentry/],
    [
      ['sentry', 'mystery.json', '--secret', 's'],
      /mystery\.json: cannot tell which Sentry resource/,
    ],
    [['sentry', 'broken.json', '--secret', 's'], /broken\.json/],
    [['newrelic', 'newrelic.json', '--token', token, '--header', 'X Bad'], /HTTP header name/],
    [['cloudwatch', 'missing.json'], /cannot read .*missing\.json/],
  ])('refuses %j with exit 2 before sending anything', async (args, message) => {
    const [source = '', file = '', ...rest] = args;
    const result = await send(source, file, ...rest);
    expect(result.exitCode).toBe(2);
    expect(result.stderr).toMatch(message);
    expect(receiver.received).toHaveLength(0);
  });
});

import { describe, expect, it } from 'vitest';
import { signRequest } from '../../lambdas/adapters/sigv4.js';
import { checkSignature, type ReceivedRequest } from '../../local/api-server/signature-check.js';
import { TokenBucket } from '../../local/api-server/token-bucket.js';

const credential = { accessKeyId: 'RALPHLOCALTEST', secretAccessKey: 'secret-of-the-server' };
const region = 'eu-west-1';
const now = new Date('2026-11-26T12:00:00Z');

/** A request signed as the CLI signs it, as the server then receives it. */
async function signed(
  overrides: {
    body?: string;
    signedAt?: Date;
    credentials?: typeof credential;
    extra?: Record<string, string>;
  } = {},
): Promise<ReceivedRequest> {
  const url = new URL('http://127.0.0.1:8787/runs?limit=2&status=paused');
  const body = overrides.body ?? '{"a":1}';
  const headers = await signRequest(
    {
      method: 'POST',
      url,
      headers: { 'content-type': 'application/json', ...overrides.extra },
      body,
    },
    {
      credentials: overrides.credentials ?? credential,
      region,
      signingDate: overrides.signedAt ?? now,
    },
  );
  return {
    method: 'POST',
    url,
    headers: Object.fromEntries(
      Object.entries(headers).map(([name, value]) => [name.toLowerCase(), value]),
    ),
    body: Buffer.from(body),
  };
}

describe('Function: checkSignature', () => {
  it('accepts a request signed with the server credential, region and service', async () => {
    expect(await checkSignature(await signed(), credential, region, now)).toEqual({
      ok: true,
      accessKeyId: credential.accessKeyId,
    });
  });

  it('refuses a signature older than 5 minutes', async () => {
    const request = await signed({ signedAt: new Date(now.getTime() - 6 * 60_000) });
    expect(await checkSignature(request, credential, region, now)).toMatchObject({
      ok: false,
      status: 403,
      reason: expect.stringMatching(/5 minutes/),
    });
  });

  it('refuses another access key, another region, and a changed query', async () => {
    const other = await signed({ credentials: { ...credential, accessKeyId: 'SOMEONEELSE' } });
    expect(await checkSignature(other, credential, region, now)).toMatchObject({ status: 403 });
    expect(await checkSignature(await signed(), credential, 'us-east-1', now)).toMatchObject({
      status: 403,
    });
    const request = await signed();
    request.url = new URL('http://127.0.0.1:8787/runs?limit=3&status=paused');
    expect(await checkSignature(request, credential, region, now)).toMatchObject({ status: 403 });
  });

  it('refuses a body whose declared hash is not its own', async () => {
    const request = await signed({ extra: { 'x-amz-content-sha256': 'a'.repeat(64) } });
    expect(await checkSignature(request, credential, region, now)).toMatchObject({
      status: 403,
      reason: expect.stringMatching(/x-amz-content-sha256/),
    });
  });

  it('says 401 for no signature and 403 for something that is not one', async () => {
    const request = await signed();
    delete request.headers.authorization;
    expect(await checkSignature(request, credential, region, now)).toMatchObject({ status: 401 });
    request.headers.authorization = 'Bearer abc';
    expect(await checkSignature(request, credential, region, now)).toMatchObject({ status: 403 });
  });
});

describe('Class: TokenBucket', () => {
  it('lets a burst through, then the rate', () => {
    const bucket = new TokenBucket({ rate: 2, burst: 3 });
    expect([0, 0, 0, 0].map(() => bucket.take(1_000))).toEqual([true, true, true, false]);
    expect(bucket.take(1_500)).toBe(true);
    expect(bucket.take(1_500)).toBe(false);
  });
});

import { describe, expect, it } from 'vitest';
import { nodeHookDigest } from '../../lambdas/adapters/hook-digest.js';
import type { HookHeaders } from '../../lambdas/core/shared/hook-auth/headers.js';
import { verifyNewRelicDelivery } from '../../lambdas/core/shared/hook-auth/newrelic.js';
import {
  sentrySignature,
  verifySentryDelivery,
} from '../../lambdas/core/shared/hook-auth/sentry.js';

const clientSecret = 'sentry-client-secret';
const body = Buffer.from('{"action":"created","data":{"issue":{"id":"1"}}}');
// openssl dgst -sha256 -hmac sentry-client-secret over the body: an answer known independently.
const knownSignature = '470f21240b712f2fa53ab6505fdf65dd15092bf0bb89145f7e6849a12bf8be4c';
const now = new Date('2026-11-27T12:00:00Z');
const nowSeconds = now.getTime() / 1000;

function sentryHeaders(overrides: Record<string, string | undefined> = {}): HookHeaders {
  return {
    'content-type': 'application/json',
    'request-id': 'c2f9d8a0-0000-4000-8000-000000000001',
    'sentry-hook-resource': 'issue',
    'sentry-hook-timestamp': String(nowSeconds - 10),
    'sentry-hook-signature': knownSignature,
    ...overrides,
  };
}

function verifySentry(headers: HookHeaders, payload: Uint8Array = body) {
  return verifySentryDelivery(headers, payload, { clientSecret, now, digest: nodeHookDigest });
}

describe('verifySentryDelivery', () => {
  it('accepts the signature Sentry computes (HMAC-SHA256 of the body, hex)', () => {
    // Act
    const result = verifySentry(sentryHeaders());
    // Assess
    expect(result).toEqual({ ok: true, replayKey: `sentry:${knownSignature}` });
    expect(sentrySignature(nodeHookDigest, clientSecret, body)).toBe(knownSignature);
  });

  it('refuses a signature made with another secret, without showing the expected one', () => {
    const other = sentrySignature(nodeHookDigest, 'another-secret', body);
    const result = verifySentry(sentryHeaders({ 'sentry-hook-signature': other }));
    expect(result).toMatchObject({ ok: false, status: 401 });
    expect(JSON.stringify(result)).toContain('does not match the body');
    expect(JSON.stringify(result)).not.toContain(knownSignature);
  });

  it.each([
    ['a prefix of the right one', knownSignature.slice(0, 32)],
    ['one character longer', `${knownSignature}0`],
    ['empty but for spaces', '   '],
    ['not hex at all', 'sha256=☃'],
  ])(
    'refuses a signature of the wrong length or form (%s) as a mismatch, not a throw',
    (_, value) => {
      const result = verifySentry(sentryHeaders({ 'sentry-hook-signature': value }));
      expect(result).toMatchObject({ ok: false, status: 401 });
    },
  );

  it('refuses a body changed by one byte', () => {
    const changed = Buffer.from(body);
    changed[changed.length - 2] = 0x20;
    expect(verifySentry(sentryHeaders(), changed)).toMatchObject({
      ok: false,
      reason: expect.stringContaining('does not match the body'),
    });
  });

  it.each(['sentry-hook-signature', 'sentry-hook-timestamp'])('names a missing %s', (name) => {
    const result = verifySentry(sentryHeaders({ [name]: undefined }));
    expect(result).toMatchObject({ ok: false, status: 401 });
    expect(result.ok || result.reason.toLowerCase()).toBe(`missing ${name} header`);
  });

  it('refuses a header sent twice', () => {
    const headers = {
      ...sentryHeaders(),
      'sentry-hook-signature': [knownSignature, knownSignature],
    };
    expect(verifySentry(headers)).toMatchObject({
      ok: false,
      reason: 'Sentry-Hook-Signature header sent more than once',
    });
  });

  it('finds its headers whatever their case', () => {
    const headers = {
      'SENTRY-HOOK-SIGNATURE': knownSignature,
      'Sentry-Hook-Timestamp': String(nowSeconds),
    };
    expect(verifySentry(headers).ok).toBe(true);
  });

  it('accepts a timestamp up to 5 minutes old and refuses an older one', () => {
    const edge = verifySentry(sentryHeaders({ 'sentry-hook-timestamp': String(nowSeconds - 300) }));
    const stale = verifySentry(
      sentryHeaders({ 'sentry-hook-timestamp': String(nowSeconds - 301) }),
    );
    expect(edge.ok).toBe(true);
    expect(stale).toMatchObject({ ok: false, reason: expect.stringMatching(/301 s old/) });
  });

  it('allows a minute of clock skew ahead and refuses more', () => {
    const ahead = verifySentry(sentryHeaders({ 'sentry-hook-timestamp': String(nowSeconds + 60) }));
    const future = verifySentry(
      sentryHeaders({ 'sentry-hook-timestamp': String(nowSeconds + 120) }),
    );
    expect(ahead.ok).toBe(true);
    expect(future).toMatchObject({
      ok: false,
      reason: expect.stringMatching(/120 s in the future/),
    });
  });

  it('refuses a timestamp that is not seconds since the epoch', () => {
    const result = verifySentry(sentryHeaders({ 'sentry-hook-timestamp': now.toISOString() }));
    expect(result).toMatchObject({ ok: false, reason: expect.stringContaining('not seconds') });
  });

  it('gives different replay keys to different bodies and the same to a repeated one', () => {
    const other = Buffer.from('{"action":"resolved"}');
    const signed = sentrySignature(nodeHookDigest, clientSecret, other);
    const first = verifySentry(sentryHeaders());
    const again = verifySentry(sentryHeaders({ 'request-id': 'another-id' }));
    const second = verifySentry(sentryHeaders({ 'sentry-hook-signature': signed }), other);
    expect(again).toEqual(first);
    expect(second.ok && first.ok && second.replayKey !== first.replayKey).toBe(true);
  });
});

describe('verifyNewRelicDelivery', () => {
  const token = 'nr-token-0123456789';
  const bearer = { kind: 'bearer', token } as const;
  const header = { kind: 'header', header: 'X-Ralph-Token', value: token } as const;
  const verify = (headers: HookHeaders, credential: typeof bearer | typeof header) =>
    verifyNewRelicDelivery(headers, body, credential, nodeHookDigest);

  it('accepts the bearer token, the scheme in any case', () => {
    expect(verify({ authorization: `Bearer ${token}` }, bearer).ok).toBe(true);
    expect(verify({ Authorization: `bearer ${token}` }, bearer)).toEqual({
      ok: true,
      replayKey: `newrelic:${nodeHookDigest.sha256Hex(body)}`,
    });
  });

  it('refuses a wrong, shorter or longer token without showing the right one', () => {
    for (const wrong of ['nr-token-0123456780', 'nr-token', `${token}9`]) {
      const result = verify({ authorization: `Bearer ${wrong}` }, bearer);
      expect(result).toMatchObject({ ok: false, status: 401 });
      expect(JSON.stringify(result)).not.toContain(token);
    }
  });

  it('refuses another scheme, and no header at all', () => {
    expect(verify({ authorization: `Basic ${token}` }, bearer)).toMatchObject({
      ok: false,
      reason: 'Authorization header is not "Bearer <token>"',
    });
    expect(verify({}, bearer)).toMatchObject({ ok: false, reason: 'missing Authorization header' });
  });

  it('takes the configured header instead of a bearer token when so configured', () => {
    expect(verify({ 'x-ralph-token': token }, header).ok).toBe(true);
    expect(verify({ authorization: `Bearer ${token}` }, header)).toMatchObject({
      ok: false,
      reason: 'missing X-Ralph-Token header',
    });
    expect(verify({ 'x-ralph-token': token }, bearer)).toMatchObject({ ok: false });
  });
});

describe('nodeHookDigest.equalInConstantTime', () => {
  it('answers false for strings of different lengths instead of throwing', () => {
    expect(nodeHookDigest.equalInConstantTime('abc', 'abcd')).toBe(false);
    expect(nodeHookDigest.equalInConstantTime('', 'a')).toBe(false);
    expect(nodeHookDigest.equalInConstantTime('same', 'same')).toBe(true);
  });
});

/**
 * New Relic workflow webhooks. New Relic signs nothing, so a delivery proves where it comes
 * from only by the secret it carries: `Authorization: Bearer <token>`, or a header the
 * workflow's webhook destination is configured to send.
 */
import type { NewRelicCredential } from '../../schemas/hook-secrets.js';
import { headerProblem, headerValue, type HookHeaders } from './headers.js';
import { refused, type HookAuthResult, type HookDigest } from './result.js';

/**
 * Whether a delivery carries the configured secret. With nothing signed and no delivery id,
 * the replay key is the body's digest: the same notification twice is the same bytes.
 *
 * @example
 * const result = verifyNewRelicDelivery(request.headers, rawBody, { kind: 'bearer', token }, digest);
 */
export function verifyNewRelicDelivery(
  headers: HookHeaders,
  body: Uint8Array,
  credential: NewRelicCredential,
  digest: HookDigest,
): HookAuthResult {
  const name = credential.kind === 'bearer' ? 'Authorization' : credential.header;
  const sent = headerValue(headers, name);
  if (!sent.found) return refused(headerProblem(name, sent.why));
  const given = credential.kind === 'bearer' ? bearerToken(sent.value) : sent.value;
  if (given === undefined) return refused('Authorization header is not "Bearer <token>"');
  const expected = credential.kind === 'bearer' ? credential.token : credential.value;
  if (!digest.equalInConstantTime(given, expected))
    return refused(`${name} header does not carry the configured New Relic token`);
  return { ok: true, replayKey: `newrelic:${digest.sha256Hex(body)}` };
}

/** The token of `Bearer <token>` (the scheme is case-insensitive, RFC 9110). */
function bearerToken(authorization: string): string | undefined {
  const match = /^bearer\s+(\S+)$/i.exec(authorization);
  return match?.[1];
}

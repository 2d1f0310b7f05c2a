/**
 * How the double checks credentials, as GitHub does: the App's JWT (RS256, signed with the
 * App's private key, verified here with its public key; `iss` the App id, `exp` in the
 * future and at most ten minutes after `iat`) for the installation-token call, and a
 * token it knows (a plain one, or an installation token it issued and that has not
 * expired) for everything else. Refusals carry GitHub's messages.
 */
import { verify } from 'node:crypto';
import type { IncomingHttpHeaders } from 'node:http';
import type { DoubleApp, GitHubDoubleState } from './double-state.js';

export type AuthCheck = { ok: true } | { ok: false; status: number; message: string };

const NOT_DECODED = 'A JSON web token could not be decoded';
/** GitHub refuses an `exp` more than ten minutes after `iat`. */
const MAX_JWT_LIFETIME_SECONDS = 600;

/** The bearer token of `authorization` (`Bearer X` or `token X`), if any. */
export function bearerOf(headers: IncomingHttpHeaders): string | undefined {
  const match = /^(?:bearer|token)\s+(\S+)$/i.exec(headers.authorization ?? '');
  return match?.[1];
}

/** A repository call's token: a known, unexpired one. */
export function checkToken(
  state: GitHubDoubleState,
  token: string | undefined,
  now: Date,
): AuthCheck {
  if (token === undefined) return { ok: false, status: 401, message: 'Requires authentication' };
  const known = state.tokens.get(token);
  if (known === undefined || known.expiresAtMs <= now.getTime())
    return { ok: false, status: 401, message: 'Bad credentials' };
  return { ok: true };
}

/** The App's JWT for `POST /app/installations/{id}/access_tokens`. */
export function checkAppJwt(
  app: DoubleApp | undefined,
  jwt: string | undefined,
  now: Date,
): AuthCheck {
  if (jwt === undefined) return { ok: false, status: 401, message: 'Requires authentication' };
  if (app === undefined)
    return { ok: false, status: 401, message: 'This double was started without a GitHub App' };
  const [header, claims, signature, ...rest] = jwt.split('.');
  if (header === undefined || claims === undefined || signature === undefined || rest.length > 0)
    return { ok: false, status: 401, message: NOT_DECODED };
  const decoded = decodeClaims(header, claims);
  if (decoded === undefined || decoded.alg !== 'RS256')
    return { ok: false, status: 401, message: NOT_DECODED };
  const signed = verify(
    'RSA-SHA256',
    Buffer.from(`${header}.${claims}`),
    app.publicKey,
    Buffer.from(signature, 'base64url'),
  );
  if (!signed) return { ok: false, status: 401, message: NOT_DECODED };
  return checkClaims(app, decoded.claims, Math.floor(now.getTime() / 1000));
}

function checkClaims(
  app: DoubleApp,
  claims: Record<string, unknown>,
  nowSeconds: number,
): AuthCheck {
  const { iss, iat, exp } = claims;
  if (String(iss) !== app.appId)
    return { ok: false, status: 401, message: "'Issuer' claim ('iss') must be an Integer" };
  if (typeof exp !== 'number' || exp <= nowSeconds)
    return {
      ok: false,
      status: 401,
      message:
        "'Expiration time' claim ('exp') must be a numeric value representing the future time at which the assertion expires",
    };
  if (typeof iat !== 'number' || iat > nowSeconds + 60)
    return {
      ok: false,
      status: 401,
      message:
        "'Issued at' claim ('iat') must be an Integer representing the time that the assertion was issued",
    };
  if (exp - iat > MAX_JWT_LIFETIME_SECONDS)
    return {
      ok: false,
      status: 401,
      message: "'Expiration time' claim ('exp') is too far in the future",
    };
  return { ok: true };
}

function decodeClaims(
  header: string,
  claims: string,
): { alg: unknown; claims: Record<string, unknown> } | undefined {
  try {
    const head = JSON.parse(Buffer.from(header, 'base64url').toString('utf8')) as { alg?: unknown };
    const body = JSON.parse(Buffer.from(claims, 'base64url').toString('utf8')) as unknown;
    if (typeof body !== 'object' || body === null) return undefined;
    return { alg: head.alg, claims: body as Record<string, unknown> };
  } catch {
    return undefined;
  }
}

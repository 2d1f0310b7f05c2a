/**
 * The JSON Web Token a GitHub App signs with its private key (RS256) to ask for an
 * installation token. GitHub wants `iss` = the App id, `iat` a little in the past (clock
 * drift) and `exp` at most ten minutes after `iat`.
 */
import { createSign } from 'node:crypto';

/** Seconds `iat` is set back, as GitHub's documentation advises for clock drift. */
const BACKDATE_SECONDS = 60;
/** Lifetime from `iat`: under GitHub's ten-minute limit. */
const LIFETIME_SECONDS = 9 * 60;

/**
 * An RS256 JWT for the App, valid from a minute ago for nine minutes.
 *
 * @example
 * const jwt = signAppJwt('12345', privateKeyPem, new Date());
 * // Authorization: Bearer <jwt> on POST /app/installations/{id}/access_tokens
 */
export function signAppJwt(appId: string | number, privateKeyPem: string, now: Date): string {
  const iat = Math.floor(now.getTime() / 1000) - BACKDATE_SECONDS;
  const header = base64url(JSON.stringify({ alg: 'RS256', typ: 'JWT' }));
  const claims = base64url(
    JSON.stringify({ iat, exp: iat + LIFETIME_SECONDS, iss: String(appId) }),
  );
  const signature = createSign('RSA-SHA256').update(`${header}.${claims}`).sign(privateKeyPem);
  return `${header}.${claims}.${signature.toString('base64url')}`;
}

function base64url(text: string): string {
  return Buffer.from(text, 'utf8').toString('base64url');
}

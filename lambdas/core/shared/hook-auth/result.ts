/**
 * What checking a webhook sender's credentials decides. A refusal names what was wrong
 * (a missing header, a stale timestamp, a signature that does not match) but never the
 * value that was expected, so the answer teaches a forger nothing.
 */

export type HookAuthResult =
  | {
      readonly ok: true;
      /**
       * The key a caller records with a conditional write to refuse the same delivery twice
       * (recording it is the caller's business).
       */
      readonly replayKey: string;
    }
  | { readonly ok: false; readonly status: 401; readonly reason: string };

export function refused(reason: string): HookAuthResult {
  return { ok: false, status: 401, reason };
}

/**
 * The two computations that need a crypto library, kept outside the core (an adapter gives
 * them) so that the decisions here stay pure.
 */
export interface HookDigest {
  /** The lowercase hex HMAC-SHA256 of `body` keyed with `secret`. */
  hmacSha256Hex(secret: string, body: Uint8Array): string;
  /** The lowercase hex SHA-256 of `body`. */
  sha256Hex(body: Uint8Array): string;
  /** Whether `a` equals `b`, in a time that tells nothing of where they differ or their lengths. */
  equalInConstantTime(a: string, b: string): boolean;
}

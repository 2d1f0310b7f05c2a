/**
 * A short, stable name for an error group: it names the group's task (`ERR-<short>`) and its
 * fix branch (`ralph/fix/<short>`). Sender fingerprints are long and hold characters a git
 * ref or an S3 key cannot (`condition:1,2@entity`), so they are hashed: 64-bit FNV-1a over
 * the source and the fingerprint, in 12 hex digits (48 bits: a collision among a project's
 * open groups is out of reach, and a collision would only share a branch name, which the
 * pull request step finds and reports).
 */
import type { ErrorGroupKey } from '../schemas/error-group.js';

const FNV_OFFSET = 0xcbf29ce484222325n;
const FNV_PRIME = 0x100000001b3n;
const MASK = (1n << 64n) - 1n;

/** @example shortFingerprint({ source: 'sentry', fingerprint: 'issue:1170820242' }) // '9b1e…' (12 hex) */
export function shortFingerprint(key: ErrorGroupKey): string {
  let hash = FNV_OFFSET;
  for (const byte of new TextEncoder().encode(`${key.source}\u0000${key.fingerprint}`)) {
    hash ^= BigInt(byte);
    hash = (hash * FNV_PRIME) & MASK;
  }
  return hash.toString(16).padStart(16, '0').slice(0, 12);
}

/** The task id of a group in its investigate run. */
export const investigateTaskId = (key: ErrorGroupKey): string => `ERR-${shortFingerprint(key)}`;

/** The branch a group's fix is proposed on. */
export const fixBranchName = (key: ErrorGroupKey): string => `ralph/fix/${shortFingerprint(key)}`;

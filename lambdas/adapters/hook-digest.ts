import { createHash, createHmac, timingSafeEqual } from 'node:crypto';
import type { HookDigest } from '../core/shared/hook-auth/result.js';

/**
 * The webhook verifiers' crypto, from Node. Equality compares the SHA-256 of both sides,
 * always 32 bytes each: `timingSafeEqual` then never sees unequal lengths (it would throw),
 * and neither the time taken nor a thrown error tells how long the secret is.
 */
export const nodeHookDigest: HookDigest = {
  hmacSha256Hex: (secret, body) => createHmac('sha256', secret).update(body).digest('hex'),
  sha256Hex: (body) => createHash('sha256').update(body).digest('hex'),
  equalInConstantTime: (a, b) =>
    timingSafeEqual(
      createHash('sha256').update(a, 'utf8').digest(),
      createHash('sha256').update(b, 'utf8').digest(),
    ),
};

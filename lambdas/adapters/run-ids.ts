import { randomBytes } from 'node:crypto';
import { newRunId } from '../core/steps/lifecycle.js';
import type { Clock } from '../ports.js';

/** A new run id: the clock's time to the second and 4 random bytes (see newRunId). */
export function randomRunId(clock: Clock): string {
  return newRunId(clock.now(), randomBytes(4).toString('hex'));
}

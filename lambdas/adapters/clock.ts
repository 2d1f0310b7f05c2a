import type { Clock } from '../ports.js';

/** The wall clock. The core never reads it directly, so tests can pass a fixed one. */
export const systemClock: Clock = {
  now: () => new Date(),
};

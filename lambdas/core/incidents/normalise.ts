/**
 * The one entry point: a delivery from any sender, its headers and raw body, becomes error
 * events or an "ignored" with its reason. Bad input throws InvalidInputError naming the
 * field (zod path) and what is wrong; nothing else is thrown for a sender's payload.
 */
import type { ErrorSource, Normalised } from '../schemas/error-event.js';
import { normaliseCloudWatch } from './cloudwatch.js';
import { normaliseNewRelic } from './newrelic.js';
import { normaliseSentry } from './sentry.js';
import type { HookHeaders } from './fields.js';

export type { HookHeaders };

/**
 * @example
 * const result = normalise('sentry', { 'sentry-hook-resource': 'issue' }, rawBody);
 * if (result.kind === 'events') for (const event of result.events) console.log(event.fingerprint);
 */
export function normalise(source: ErrorSource, headers: HookHeaders, body: string): Normalised {
  switch (source) {
    case 'sentry':
      return normaliseSentry(headers, body);
    case 'newrelic':
      return normaliseNewRelic(body);
    case 'cloudwatch':
      return normaliseCloudWatch(body);
  }
}

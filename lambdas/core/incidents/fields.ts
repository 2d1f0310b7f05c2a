/**
 * Small conversions every sender's mapping needs. A sender's field that is present but
 * unusable here (a time that does not parse, a link that is not a URL) is left out of the
 * error event rather than refusing the delivery: it is a detail, not what the event is.
 */
import type { ErrorLevel } from '../schemas/error-event.js';

/** An ISO-8601 instant from a sender's time (ISO text in any offset form, or epoch millis). */
export function isoInstant(value: string | number | null | undefined): string | undefined {
  if (value === null || value === undefined || value === '') return undefined;
  const date = new Date(value);
  return Number.isNaN(date.getTime()) ? undefined : date.toISOString();
}

/** `value` when it is an absolute http(s) URL. */
export function webUrl(value: string | null | undefined): string | undefined {
  if (!value) return undefined;
  try {
    const url = new URL(value);
    return url.protocol === 'https:' || url.protocol === 'http:' ? value : undefined;
  } catch {
    return undefined;
  }
}

/** Request headers by name; names are matched whatever their case. */
export type HookHeaders = Readonly<Record<string, string | undefined>>;

/** A header's value, whatever case the sender (or a proxy on the way) wrote its name in. */
export function headerValue(headers: HookHeaders, name: string): string | undefined {
  const wanted = name.toLowerCase();
  for (const [key, value] of Object.entries(headers)) {
    if (key.toLowerCase() === wanted) return value;
  }
  return undefined;
}

/**
 * Sentry's and most SDKs' level words, normalised: `debug` and `info` are info; a word it
 * does not know (or none) counts as an error, since it came from an error tracker.
 */
export function levelFromWord(word: string | null | undefined): ErrorLevel {
  switch (word?.toLowerCase()) {
    case 'fatal':
    case 'critical':
      return 'fatal';
    case 'warning':
    case 'warn':
      return 'warning';
    case 'info':
    case 'debug':
    case 'log':
      return 'info';
    default:
      return 'error';
  }
}

/** Drops the entries whose value is missing, so an event carries only what the sender said. */
export function definedEntries(
  entries: readonly (readonly [string, string | null | undefined])[],
): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [key, value] of entries) if (value !== null && value !== undefined) out[key] = value;
  return out;
}

import { readdirSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import {
  ERROR_SOURCES,
  NormalisedSchema,
  type ErrorSource,
} from '../../lambdas/core/schemas/error-event.js';
import { normalise } from '../../lambdas/core/incidents/normalise.js';
import { HOOK_FIXTURES, hookFixture } from '../support/hook-fixtures.js';

/** Every recorded delivery: its source is its folder; a Sentry file is named `<resource>.<action>`. */
const DELIVERIES = ERROR_SOURCES.flatMap((source) =>
  readdirSync(`${HOOK_FIXTURES}${source}`).map((file) => ({ source, file })),
);

function headersOf(source: ErrorSource, file: string): Record<string, string> {
  return source === 'sentry' ? { 'Sentry-Hook-Resource': file.split('.')[0]! } : {};
}

describe('Schema: NormalisedSchema', () => {
  it('has a recorded delivery for every source', () => {
    expect(new Set(DELIVERIES.map((delivery) => delivery.source))).toEqual(new Set(ERROR_SOURCES));
  });

  it.each(DELIVERIES)('holds what $source/$file becomes', ({ source, file }) => {
    const result = normalise(source, headersOf(source, file), hookFixture(`${source}/${file}`));

    expect(NormalisedSchema.parse(result)).toEqual(result);
    if (result.kind === 'events')
      for (const event of result.events) expect(event.source).toBe(source);
  });

  it('refuses an events result with no event: a delivery that is none is "ignored"', () => {
    expect(NormalisedSchema.safeParse({ kind: 'events', events: [] }).success).toBe(false);
  });
});

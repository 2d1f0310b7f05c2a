import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { expect } from 'vitest';
import { InvalidInputError } from '../../lambdas/core/errors.js';
import type { ErrorEvent, Normalised } from '../../lambdas/core/schemas/error-event.js';

/** Where the recorded sender payloads live (test/fixtures/hooks/README.md says whence each). */
export const HOOK_FIXTURES = fileURLToPath(new URL('../fixtures/hooks/', import.meta.url));

/** A recorded payload's raw text, as the sender posts it: `hookFixture('sentry/issue.created.json')`. */
export function hookFixture(path: string): string {
  return readFileSync(`${HOOK_FIXTURES}${path}`, 'utf8');
}

/** A recorded payload parsed, to change one field for a test and post it back as text. */
export function hookFixtureJson<T = Record<string, unknown>>(path: string): T {
  return JSON.parse(hookFixture(path)) as T;
}

/** The one error event a delivery became (fails the test when it was ignored, or several). */
export function onlyEvent(result: Normalised): ErrorEvent {
  if (result.kind !== 'events') throw new Error(`expected events, got ignored: ${result.reason}`);
  expect(result.events).toHaveLength(1);
  return result.events[0]!;
}

/** The InvalidInputError `run` throws, for its issues to be read (fails if it throws none). */
export function refusal(run: () => unknown): InvalidInputError {
  try {
    run();
  } catch (error) {
    expect(error).toBeInstanceOf(InvalidInputError);
    return error as InvalidInputError;
  }
  throw new Error('expected the delivery to be refused');
}

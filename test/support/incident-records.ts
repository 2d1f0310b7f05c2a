/**
 * Error groups and batches for the intake's tests, made from a recorded Sentry delivery so
 * that their events are what the normaliser really produces.
 */
import { normalise } from '../../lambdas/core/incidents/normalise.js';
import type { ErrorEvent } from '../../lambdas/core/schemas/error-event.js';
import type { ErrorGroup, InvestigationBatch } from '../../lambdas/core/schemas/error-group.js';
import { hookFixture, onlyEvent } from './hook-fixtures.js';

/** The recorded `issue.created` delivery's event, with `overrides`. */
export function sentryIssueEvent(overrides: Partial<ErrorEvent> = {}): ErrorEvent {
  const event = onlyEvent(
    normalise(
      'sentry',
      { 'sentry-hook-resource': 'issue' },
      hookFixture('sentry/issue.created.json'),
    ),
  );
  return { ...event, ...overrides };
}

export function makeGroup(overrides: Partial<ErrorGroup> = {}): ErrorGroup {
  const latest = sentryIssueEvent(
    overrides.fingerprint === undefined ? {} : { fingerprint: overrides.fingerprint },
  );
  return {
    source: 'sentry',
    fingerprint: latest.fingerprint,
    status: 'pending',
    latest,
    deliveries: 1,
    seen: 1,
    usersAffected: 1,
    firstReceivedAt: '2026-11-27T07:00:00.000Z',
    lastReceivedAt: '2026-11-27T07:00:00.000Z',
    regressions: 0,
    projectId: 'shop',
    version: 1,
    ...overrides,
  };
}

export function makeBatch(overrides: Partial<InvestigationBatch> = {}): InvestigationBatch {
  return {
    projectId: 'shop',
    batchId: 'b00000001',
    status: 'open',
    openedAt: '2026-11-27T07:00:00.000Z',
    closesAt: '2026-11-27T07:05:00.000Z',
    groups: [],
    runId: 'r20261127-070000-abcdef',
    closeScheduled: false,
    version: 1,
    ...overrides,
  };
}

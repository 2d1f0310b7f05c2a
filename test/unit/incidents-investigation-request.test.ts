/**
 * From a closed batch to an investigate run's request: groups ranked by frequency,
 * severity, recency and users affected; capped at the route's maxErrorsPerRun; each one a
 * task named by a short, stable fingerprint that is also its fix branch's name.
 */
import { describe, expect, it } from 'vitest';
import { normalise } from '../../lambdas/core/incidents/normalise.js';
import { investigationRequest } from '../../lambdas/core/incidents/investigation-request.js';
import { groupScore, rankGroups } from '../../lambdas/core/incidents/rank.js';
import {
  fixBranchName,
  investigateTaskId,
  shortFingerprint,
} from '../../lambdas/core/incidents/short-fingerprint.js';
import type { ErrorEvent } from '../../lambdas/core/schemas/error-event.js';
import type { ErrorGroup, InvestigationBatch } from '../../lambdas/core/schemas/error-group.js';
import { branchNameProblem } from '../../lambdas/core/schemas/branch-name.js';
import {
  ProjectRouteBodySchema,
  type ProjectRoute,
} from '../../lambdas/core/schemas/project-route.js';
import { hookFixture, onlyEvent } from '../support/hook-fixtures.js';

const NOW = new Date('2026-11-27T07:00:00.000Z');

const sentryEvent: ErrorEvent = onlyEvent(
  normalise(
    'sentry',
    { 'sentry-hook-resource': 'issue' },
    hookFixture('sentry/issue.created.json'),
  ),
);

function group(overrides: Partial<ErrorGroup> & { fingerprint: string }): ErrorGroup {
  return {
    source: 'sentry',
    status: 'pending',
    // The recorded payload is years old: seen a minute ago here, so recency can count.
    latest: {
      ...sentryEvent,
      fingerprint: overrides.fingerprint,
      lastSeen: '2026-11-27T06:59:00.000Z',
    },
    deliveries: 1,
    seen: 0,
    usersAffected: 0,
    firstReceivedAt: '2026-11-27T06:58:00.000Z',
    lastReceivedAt: '2026-11-27T06:59:00.000Z',
    regressions: 0,
    version: 1,
    ...overrides,
  };
}

function route(maxErrorsPerRun: number): ProjectRoute {
  const body = ProjectRouteBodySchema.parse({
    matches: [{ kind: 'sentry-project', key: 'shop' }],
    repo: 'https://github.com/acme/shop.git',
    codeHost: { owner: 'acme', name: 'shop' },
    investigate: { maxErrorsPerRun },
  });
  return {
    ...body,
    projectId: 'shop',
    version: 1,
    createdAt: NOW.toISOString(),
    updatedAt: NOW.toISOString(),
  };
}

const batch: InvestigationBatch = {
  projectId: 'shop',
  batchId: 'b-1',
  status: 'closed',
  openedAt: '2026-11-27T06:55:00.000Z',
  closesAt: '2026-11-27T07:00:00.000Z',
  groups: [],
  runId: 'run-1',
  closeScheduled: true,
  version: 2,
};

describe('short fingerprints', () => {
  it('are 12 hex digits, stable, and differ by source and by fingerprint', () => {
    const key = { source: 'sentry', fingerprint: 'issue:1170820242' } as const;
    expect(shortFingerprint(key)).toMatch(/^[0-9a-f]{12}$/);
    expect(shortFingerprint(key)).toBe(shortFingerprint({ ...key }));
    expect(shortFingerprint({ ...key, source: 'newrelic' })).not.toBe(shortFingerprint(key));
    expect(shortFingerprint({ ...key, fingerprint: 'issue:1170820243' })).not.toBe(
      shortFingerprint(key),
    );
  });

  it('name a task and a branch git accepts, whatever the sender put in the fingerprint', () => {
    const key = { source: 'newrelic', fingerprint: 'condition:1,2@entity one/two' } as const;
    expect(investigateTaskId(key)).toBe(`ERR-${shortFingerprint(key)}`);
    expect(branchNameProblem(fixBranchName(key))).toBeUndefined();
  });
});

describe('ranking', () => {
  it('puts the more frequent, the more severe, the more recent and the wider first', () => {
    const base = group({ fingerprint: 'base' });
    const frequent = group({ fingerprint: 'frequent', seen: 500 });
    const fatal = group({ fingerprint: 'fatal', latest: { ...base.latest, level: 'fatal' } });
    const stale = group({
      fingerprint: 'stale',
      latest: { ...base.latest, lastSeen: '2026-11-25T07:00:00.000Z' },
    });
    const wide = group({ fingerprint: 'wide', usersAffected: 40 });
    const score = (g: ErrorGroup) => groupScore(g, NOW);
    expect(score(frequent)).toBeGreaterThan(score(base));
    expect(score(fatal)).toBeGreaterThan(score(base));
    expect(score(stale)).toBeLessThan(score(base));
    expect(score(wide)).toBeGreaterThan(score(base));
    expect(rankGroups([base, stale, frequent], NOW).map((r) => r.group.fingerprint)).toEqual([
      'frequent',
      'base',
      'stale',
    ]);
  });

  it('breaks ties by arrival, first first', () => {
    const later = group({ fingerprint: 'later', firstReceivedAt: '2026-11-27T06:59:30.000Z' });
    const earlier = group({ fingerprint: 'earlier', firstReceivedAt: '2026-11-27T06:58:30.000Z' });
    expect(rankGroups([later, earlier], NOW).map((r) => r.group.fingerprint)).toEqual([
      'earlier',
      'later',
    ]);
  });
});

describe('the investigation request', () => {
  it('makes one story per group, highest ranked first, capped, and says which were left', () => {
    const groups = [
      group({ fingerprint: 'a', seen: 2 }),
      group({ fingerprint: 'b', seen: 900 }),
      group({ fingerprint: 'c', seen: 40 }),
    ];
    const plan = investigationRequest({
      route: route(2),
      repo: { kind: 'git', url: 'https://github.com/acme/shop.git' },
      batch,
      groups,
      runId: 'run-1',
      now: NOW,
    });
    const ids = plan.request.prd.userStories.map((story) => story.id);
    expect(ids).toEqual([investigateTaskId(groups[1]!), investigateTaskId(groups[2]!)]);
    expect(plan.request.prd.userStories.map((story) => story.priority)).toEqual([1, 2]);
    expect(plan.left.map((left) => left.fingerprint)).toEqual(['a']);
    expect(plan.tasks.map((task) => task.taskId)).toEqual(ids);
    const { investigation } = plan.request;
    expect(investigation?.errors.map((error) => error.fingerprint)).toEqual(['b', 'c']);
    expect(investigation).toMatchObject({
      batchId: 'b-1',
      projectId: 'shop',
      baseBranch: 'main',
      codeHost: { owner: 'acme', name: 'shop' },
      settings: { maxPasses: 2, runContextChars: 1500 },
    });
    const [first] = plan.request.prd.userStories;
    expect(first?.title).toBe(`Investigate: ${sentryEvent.title}`);
    expect(first?.notes).toBe(sentryEvent.links.web);
    expect(plan.request.prd.branchName).toBe('ralph/investigate/run-1');
  });
});

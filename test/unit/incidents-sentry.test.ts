import { describe, expect, it } from 'vitest';
import type { Normalised } from '../../lambdas/core/schemas/error-event.js';
import { normalise } from '../../lambdas/core/incidents/normalise.js';
import { hookFixture, hookFixtureJson, onlyEvent, refusal } from '../support/hook-fixtures.js';

/** A delivery as Sentry posts it: the resource in its header, the body as text. */
function deliver(resource: string, body: string): Normalised {
  return normalise('sentry', { 'Sentry-Hook-Resource': resource }, body);
}

describe('Function: normalise (Sentry)', () => {
  it('makes issue.created the error group itself: counts, times, project route', () => {
    const event = onlyEvent(deliver('issue', hookFixture('sentry/issue.created.json')));

    expect(event).toMatchObject({
      source: 'sentry',
      delivery: 'issue',
      action: 'created',
      fingerprint: 'issue:1170820242',
      title: 'ReferenceError: blooopy is not defined',
      culprit: '?(runner)',
      level: 'error',
      counts: { seen: 1, usersAffected: 1 },
      firstSeen: '2019-08-19T20:58:37.391Z',
      lastSeen: '2019-08-19T20:58:37.391Z',
      route: { kind: 'sentry-project', keys: ['front-end', '1'] },
    });
    expect(event.tags).toMatchObject({ shortId: 'FRONT-END-9', substatus: 'escalating' });
  });

  it.each([
    ['resolved', 'resolved'],
    ['assigned', 'assigned'],
    ['ignored', 'ignored'],
    ['archived', 'ignored'],
    ['unresolved', 'unresolved'],
  ])('keeps issue action %s as %s, so later code can close or reopen the group', (sent, action) => {
    const body = hookFixtureJson('sentry/issue.created.json');
    body.action = sent;

    const event = onlyEvent(deliver('issue', JSON.stringify(body)));

    expect(event).toMatchObject({ action, senderAction: sent, fingerprint: 'issue:1170820242' });
  });

  it('reads event_alert.triggered with its stack frames, tags, links and rule', () => {
    const event = onlyEvent(
      deliver('event_alert', hookFixture('sentry/event_alert.triggered.json')),
    );

    expect(event).toMatchObject({
      delivery: 'event_alert',
      action: 'triggered',
      fingerprint: 'issue:1117540176',
      title: 'ReferenceError: heck is not defined',
      detail: 'heck is not defined',
      route: { kind: 'sentry-project', keys: ['front-end', '1'] },
      links: {
        web: 'https://sentry.io/organizations/test-org/issues/1117540176/events/e4874d664c3540c1a32eab185f12c5ab/',
        api: 'https://sentry.io/api/0/issues/1117540176/',
      },
    });
    expect(event.frames).toHaveLength(3);
    expect(event.frames[2]).toEqual({
      filename: '<anonymous>',
      absPath: '<anonymous>',
      lineno: 3,
      colno: 5,
      inApp: false,
    });
    expect(event.tags).toMatchObject({ handled: 'no', rule: 'Very Important Alert Rule!' });
  });

  it('puts error.created in the same group as the issue it belongs to', () => {
    const issue = onlyEvent(deliver('issue', hookFixture('sentry/issue.created.json')));
    const error = onlyEvent(deliver('error', hookFixture('sentry/error.created.json')));

    expect(error.fingerprint).toBe(issue.fingerprint);
    expect(error.frames[0]).toMatchObject({
      filename: '/runner',
      lineno: 3,
      colno: 5,
      contextLine: '<meta charset=utf-8>',
    });
  });

  it('makes a critical metric alert a fatal event keyed on its rule, routed by its projects', () => {
    const event = onlyEvent(
      deliver('metric_alert', hookFixture('sentry/metric_alert.critical.json')),
    );

    expect(event).toMatchObject({
      action: 'triggered',
      senderAction: 'critical',
      fingerprint: 'metric-alert:7',
      title: 'Critical: Too many errors',
      level: 'fatal',
      route: { kind: 'sentry-project', keys: ['bar'] },
    });
  });

  it.each([
    ['fatal', 'fatal'],
    ['warning', 'warning'],
    ['info', 'info'],
    ['debug', 'info'],
    ['sample', 'error'],
  ])('normalises the level %s to %s', (sent, level) => {
    const body = hookFixtureJson<{ data: { issue: Record<string, unknown> } }>(
      'sentry/issue.created.json',
    );
    body.data.issue.level = sent;

    expect(onlyEvent(deliver('issue', JSON.stringify(body))).level).toBe(level);
  });

  it('makes a warning metric alert a warning', () => {
    const body = hookFixtureJson('sentry/metric_alert.critical.json');
    body.action = 'warning';

    expect(onlyEvent(deliver('metric_alert', JSON.stringify(body)))).toMatchObject({
      level: 'warning',
      senderAction: 'warning',
      fingerprint: 'metric-alert:7',
    });
  });

  it('ignores a resolved metric alert and an installation, saying why', () => {
    const resolved = hookFixtureJson('sentry/metric_alert.critical.json');
    resolved.action = 'resolved';

    const results = [
      deliver('metric_alert', JSON.stringify(resolved)),
      deliver('installation', hookFixture('sentry/installation.created.json')),
    ];

    expect(results).toEqual([
      { kind: 'ignored', source: 'sentry', reason: expect.stringContaining('resolved') },
      {
        kind: 'ignored',
        source: 'sentry',
        reason: expect.stringContaining('installation created'),
      },
    ]);
  });

  it('takes fields Sentry adds later without complaint', () => {
    const body = hookFixtureJson<{ data: { issue: Record<string, unknown> } }>(
      'sentry/issue.created.json',
    );
    body.data.issue.seerFixability = 0.7;

    expect(onlyEvent(deliver('issue', JSON.stringify(body))).fingerprint).toBe('issue:1170820242');
  });

  it('finds the resource header whatever its case', () => {
    const result = normalise(
      'sentry',
      { 'sentry-hook-resource': 'issue' },
      hookFixture('sentry/issue.created.json'),
    );

    expect(result.kind).toBe('events');
  });

  it('ignores a comment on an issue, saying why', () => {
    const body = { action: 'created', data: { comment: 'seen it', issue_id: 100 } };

    expect(deliver('comment', JSON.stringify(body))).toEqual({
      kind: 'ignored',
      source: 'sentry',
      reason: "comment created is a person's note on an issue, not an error",
    });
  });

  it('refuses an unknown resource, naming the known ones', () => {
    const error = refusal(() => deliver('seer', '{}'));

    expect(error.issues).toEqual([
      expect.stringMatching(
        /^Sentry-Hook-Resource: unknown resource "seer"; known: installation, event_alert, issue, metric_alert, error, comment/,
      ),
    ]);
  });

  it('refuses a delivery without the resource header', () => {
    const error = refusal(() => normalise('sentry', {}, hookFixture('sentry/issue.created.json')));

    expect(error.issues[0]).toMatch(/^Sentry-Hook-Resource: missing/);
  });

  it('refuses malformed JSON as invalid input, not a crash', () => {
    const error = refusal(() => deliver('issue', '{"action": "created", '));

    expect(error.issues[0]).toMatch(/^\(root\): not valid JSON/);
  });

  it('refuses a wrong shape with the zod path of each problem', () => {
    const body = hookFixtureJson<{ action: string; data: { issue: Record<string, unknown> } }>(
      'sentry/issue.created.json',
    );
    delete body.data.issue.title;
    body.action = 'exploded';

    const error = refusal(() => deliver('issue', JSON.stringify(body)));

    expect(error.issues).toEqual(
      expect.arrayContaining([
        expect.stringMatching(/^action: /),
        expect.stringMatching(/^data\.issue\.title: /),
      ]),
    );
  });

  it('refuses a metric alert that names no project: no route could take it', () => {
    const body = hookFixtureJson<{
      data: { metric_alert: { projects?: string[]; alert_rule: { projects?: string[] } } };
    }>('sentry/metric_alert.critical.json');
    delete body.data.metric_alert.projects;
    delete body.data.metric_alert.alert_rule.projects;

    expect(refusal(() => deliver('metric_alert', JSON.stringify(body))).issues).toEqual([
      expect.stringMatching(/^data\.metric_alert\.projects: no project named/),
    ]);
  });

  it('refuses an issue payload posted as another resource', () => {
    const error = refusal(() => deliver('event_alert', hookFixture('sentry/issue.created.json')));

    expect(error.issues).toEqual(
      expect.arrayContaining([
        expect.stringMatching(/^action: /),
        expect.stringMatching(/^data\.event: /),
      ]),
    );
  });
});

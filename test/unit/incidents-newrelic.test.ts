import { describe, expect, it } from 'vitest';
import type { Normalised } from '../../lambdas/core/schemas/error-event.js';
import { normalise } from '../../lambdas/core/incidents/normalise.js';
import { hookFixture, hookFixtureJson, onlyEvent, refusal } from '../support/hook-fixtures.js';

const DEFAULT_TEMPLATE = 'newrelic/default-template.json';

function deliver(body: string): Normalised {
  return normalise('newrelic', { authorization: 'Bearer not-read-here' }, body);
}

/** The default template's payload with some fields changed, as text. */
function changed(fields: Record<string, unknown>): string {
  return JSON.stringify({ ...hookFixtureJson(DEFAULT_TEMPLATE), ...fields });
}

describe('Function: normalise (New Relic)', () => {
  it('reads the default template, "false" as a string included', () => {
    const event = onlyEvent(deliver(hookFixture(DEFAULT_TEMPLATE)));

    expect(event).toMatchObject({
      source: 'newrelic',
      delivery: 'workflow',
      action: 'triggered',
      senderAction: 'ACTIVATED',
      fingerprint: 'condition:Checkout errors@checkout-api',
      title: "checkout-api query result is > 1.0 for 1 minutes on 'Checkout errors'",
      culprit: 'checkout-api',
      level: 'fatal',
      counts: { seen: 1 },
      firstSeen: '2024-04-22T03:05:31.352Z',
      lastSeen: '2024-04-22T07:08:28.699Z',
      route: { kind: 'newrelic-policy', keys: ['Golden Signals'] },
      links: { web: expect.stringContaining('/issues/c5faa7e6-7b54-402d-af79-f99601e0278c') },
    });
    expect(event.tags).toMatchObject({
      issueId: 'c5faa7e6-7b54-402d-af79-f99601e0278c',
      isCorrelated: 'false',
    });
  });

  it.each([true, false, 'true'])('takes isCorrelated as %j', (isCorrelated) => {
    const event = onlyEvent(deliver(changed({ isCorrelated })));

    expect(event.tags.isCorrelated).toBe(String(isCorrelated));
  });

  it('keeps one fingerprint when the same condition opens a new issue on the same entity', () => {
    const first = onlyEvent(deliver(hookFixture(DEFAULT_TEMPLATE)));
    const again = onlyEvent(deliver(changed({ id: '0ea2df1c-adab-45d2-aae0-042b609d2322' })));

    expect(again.fingerprint).toBe(first.fingerprint);
  });

  it('falls back to the issue id, named issueId by an edited template, without conditions', () => {
    const body = hookFixtureJson(DEFAULT_TEMPLATE);
    delete body.id;
    delete body.alertConditionNames;

    const event = onlyEvent(deliver(JSON.stringify({ ...body, issueId: 'abc-123' })));

    expect(event.fingerprint).toBe('issue:abc-123');
  });

  it.each([
    ['CREATED', 'created'],
    ['ACKNOWLEDGED', 'acknowledged'],
  ])('maps state %s to action %s', (state, action) => {
    expect(onlyEvent(deliver(changed({ state }))).action).toBe(action);
  });

  it.each([
    ['HIGH', 'error'],
    ['MEDIUM', 'warning'],
    ['LOW', 'info'],
  ])('maps priority %s to level %s', (priority, level) => {
    expect(onlyEvent(deliver(changed({ priority }))).level).toBe(level);
  });

  it('ignores a closed issue, saying why', () => {
    expect(deliver(changed({ state: 'CLOSED' }))).toEqual({
      kind: 'ignored',
      source: 'newrelic',
      reason: 'issue c5faa7e6-7b54-402d-af79-f99601e0278c closed: nothing is failing now',
    });
  });

  it('refuses malformed JSON as invalid input', () => {
    expect(refusal(() => deliver('{"id": ')).issues[0]).toMatch(/^\(root\): not valid JSON/);
  });

  it('refuses a wrong shape with each zod path: no policy, an unknown state, no id', () => {
    const body = hookFixtureJson(DEFAULT_TEMPLATE);
    delete body.id;

    const error = refusal(() =>
      deliver(
        JSON.stringify({ ...body, alertPolicyNames: [], state: 'EXPLODED', isCorrelated: 'no' }),
      ),
    );

    expect(error.issues).toEqual(
      expect.arrayContaining([
        expect.stringMatching(/^alertPolicyNames: /),
        expect.stringMatching(/^state: /),
        expect.stringMatching(/^isCorrelated: /),
      ]),
    );
    expect(refusal(() => deliver(JSON.stringify(body))).issues).toEqual([
      expect.stringMatching(/^id: missing: the issue id/),
    ]);
  });

  it('refuses a JSON array instead of an object', () => {
    expect(refusal(() => deliver('[]')).issues[0]).toMatch(/^\(root\): expected object/);
  });
});

import { describe, expect, it } from 'vitest';
import type { Normalised } from '../../lambdas/core/schemas/error-event.js';
import { normalise } from '../../lambdas/core/incidents/normalise.js';
import { normaliseCloudWatchEvent } from '../../lambdas/core/incidents/cloudwatch.js';
import { hookFixture, hookFixtureJson, onlyEvent, refusal } from '../support/hook-fixtures.js';

const ALARM_ARN = 'arn:aws:cloudwatch:us-east-1:123456789012:alarm:ServerCpuTooHigh';

function deliver(body: string): Normalised {
  return normalise('cloudwatch', {}, body);
}

/** The SNS notification fixture with its alarm message changed. */
function snsWith(alarm: Record<string, unknown>): Record<string, unknown> {
  const sns = hookFixtureJson<{ Message: string }>('cloudwatch/sns-alarm.json');
  return { ...sns, Message: JSON.stringify({ ...JSON.parse(sns.Message), ...alarm }) };
}

describe('Function: normalise (CloudWatch)', () => {
  it('reads an ALARM state change from EventBridge: ARN fingerprint, metric, reason, console link', () => {
    const event = onlyEvent(deliver(hookFixture('cloudwatch/eventbridge-alarm.json')));

    expect(event).toMatchObject({
      source: 'cloudwatch',
      delivery: 'eventbridge',
      action: 'triggered',
      senderAction: 'ALARM',
      fingerprint: ALARM_ARN,
      title: 'ServerCpuTooHigh: Goes into alarm when server CPU utilization is too high!',
      culprit: 'AWS/EC2 CPUUtilization (InstanceId=i-12345678901234567)',
      detail: expect.stringMatching(/^Threshold Crossed/),
      level: 'error',
      firstSeen: '2019-10-02T17:04:40.989Z',
      route: { kind: 'cloudwatch-alarm', keys: ['ServerCpuTooHigh'] },
      links: {
        web: 'https://us-east-1.console.aws.amazon.com/cloudwatch/home?region=us-east-1#alarmsV2:alarm/ServerCpuTooHigh',
      },
    });
    expect(event.tags).toMatchObject({ region: 'us-east-1', previousState: 'OK' });
  });

  it('makes the SNS notification of the same alarm the same error group', () => {
    const fromEventBridge = onlyEvent(deliver(hookFixture('cloudwatch/eventbridge-alarm.json')));
    const fromSns = onlyEvent(deliver(hookFixture('cloudwatch/sns-alarm.json')));

    expect(fromSns).toMatchObject({
      delivery: 'sns',
      fingerprint: fromEventBridge.fingerprint,
      culprit: fromEventBridge.culprit,
      detail: fromEventBridge.detail,
      route: fromEventBridge.route,
    });
  });

  it('reads the event a Lambda is handed, already parsed, the same as its text', () => {
    const text = hookFixture('cloudwatch/eventbridge-alarm.json');

    expect(normaliseCloudWatchEvent(JSON.parse(text))).toEqual(deliver(text));
  });

  it('keys an old SNS notification without an ARN on the alarm name', () => {
    const event = onlyEvent(deliver(JSON.stringify(snsWith({ AlarmArn: undefined }))));

    expect(event.fingerprint).toBe('alarm:ServerCpuTooHigh');
    expect(event.links.web).toBeUndefined();
  });

  it('reads the notifications of a Lambda subscription, one event per ALARM record', () => {
    const alarm = hookFixtureJson('cloudwatch/sns-alarm.json');
    const ok = snsWith({ NewStateValue: 'OK' });

    const result = deliver(JSON.stringify({ Records: [{ Sns: alarm }, { Sns: ok }] }));

    expect(result.kind === 'events' && result.events.map((event) => event.fingerprint)).toEqual([
      ALARM_ARN,
    ]);
  });

  it.each([
    ['EventBridge OK', hookFixture('cloudwatch/eventbridge-ok.json'), /went to OK/],
    [
      'SNS INSUFFICIENT_DATA',
      JSON.stringify(snsWith({ NewStateValue: 'INSUFFICIENT_DATA' })),
      /went to INSUFFICIENT_DATA/,
    ],
    [
      'SNS subscription confirmation',
      JSON.stringify({
        ...hookFixtureJson('cloudwatch/sns-alarm.json'),
        Type: 'SubscriptionConfirmation',
      }),
      /SubscriptionConfirmation is not an alarm/,
    ],
    [
      'an alarm configuration change',
      JSON.stringify({
        ...hookFixtureJson('cloudwatch/eventbridge-alarm.json'),
        'detail-type': 'CloudWatch Alarm Configuration Change',
      }),
      /is not an alarm state change/,
    ],
  ])('ignores %s, saying why', (_name, body, reason) => {
    const result = deliver(body);

    expect(result).toEqual({
      kind: 'ignored',
      source: 'cloudwatch',
      reason: expect.stringMatching(reason),
    });
  });

  it('refuses malformed JSON, in the body and in the SNS Message', () => {
    const inMessage = { ...hookFixtureJson('cloudwatch/sns-alarm.json'), Message: '{"AlarmName":' };

    expect(refusal(() => deliver('{"detail-type"')).issues[0]).toMatch(/^\(root\): not valid JSON/);
    expect(refusal(() => deliver(JSON.stringify(inMessage))).issues[0]).toMatch(
      /^Message: not valid JSON/,
    );
  });

  it('refuses a wrong shape with the zod path inside the SNS Message and the Records', () => {
    const record = snsWith({ NewStateValue: 'EXPLODED', AlarmName: undefined });

    const error = refusal(() => deliver(JSON.stringify({ Records: [{ Sns: record }] })));

    expect(error.issues).toEqual(
      expect.arrayContaining([
        expect.stringMatching(/^Records\[0\]\.Sns\.Message\.NewStateValue: /),
        expect.stringMatching(/^Records\[0\]\.Sns\.Message\.AlarmName: /),
      ]),
    );
  });

  it('refuses an EventBridge event without the alarm state, naming the path', () => {
    const event = hookFixtureJson<{ detail: Record<string, unknown> }>(
      'cloudwatch/eventbridge-alarm.json',
    );
    delete event.detail.state;

    expect(refusal(() => deliver(JSON.stringify(event))).issues).toEqual([
      expect.stringMatching(/^detail\.state: /),
    ]);
  });

  it('refuses a body that is none of the three shapes, naming them', () => {
    expect(refusal(() => deliver('{"alarm": "x"}')).issues[0]).toMatch(
      /EventBridge event .* SNS notification .* SNS Lambda event/,
    );
  });
});

import { Match, Template } from 'aws-cdk-lib/assertions';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { InvalidInputError } from '../../lambdas/core/errors.js';
import { CONTEXT_KEYS, createRalphApp } from '../../lib/ralph-app.js';
import { logicalIdOf } from '../support/iam-permissions.js';

const PUBLISHERS = [
  {
    account: '111122223333',
    keyArn: 'arn:aws:kms:eu-west-1:111122223333:key/0f0e0d0c-1111-2222-3333-444455556666',
    bucket: 'ralph-publisher-one',
  },
];
const NO_BUNDLING = { 'aws:cdk:bundling-stacks': [] };

describe('Sharing from the context of the app', () => {
  const outdir = mkdtempSync(join(tmpdir(), 'ralph-sharing-context-'));
  afterAll(() => rmSync(outdir, { recursive: true, force: true }));
  const app = (context: Record<string, unknown>) =>
    createRalphApp({
      outdir: mkdtempSync(join(outdir, 'app-')),
      context: { ...NO_BUNDLING, ...context },
    });

  it('shares with the organisation and imports from the publishers given on the command line, cdk-nag clean', () => {
    // Act: `cdk deploy -c ralph:sharingOrganizationId=... -c ralph:sharingTrustedPublishers='[...]'`
    const { stack } = app({
      [CONTEXT_KEYS.sharingOrganizationId]: 'o-a1b2c3d4e5',
      [CONTEXT_KEYS.sharingTrustedPublishers]: JSON.stringify(PUBLISHERS),
    });
    const template = Template.fromStack(stack);

    // Assess
    const sharing = stack.sharing!;
    template.hasResourceProperties('AWS::Events::Rule', {
      EventPattern: { account: ['111122223333'] },
    });
    template.hasOutput('SharingBusArn', {
      Value: { 'Fn::GetAtt': [logicalIdOf(stack, sharing.bus), 'Arn'] },
    });
    template.hasOutput('SharingSigningKeyArn', {
      Value: { 'Fn::GetAtt': [logicalIdOf(stack, sharing.signingKey), 'Arn'] },
    });
    template.hasOutput('SharingBundlePrefix', {});
  });

  it('takes the publishers as a list too, as cdk.json holds them', () => {
    // Act
    const { stack } = app({
      [CONTEXT_KEYS.sharingOrganizationId]: 'o-a1b2c3d4e5',
      [CONTEXT_KEYS.sharingTrustedPublishers]: PUBLISHERS,
    });

    // Assess
    expect(stack.sharing?.shareImport).toBeDefined();
  });

  it('publishes only when no publisher is trusted', () => {
    // Act
    const { stack } = app({ [CONTEXT_KEYS.sharingOrganizationId]: 'o-a1b2c3d4e5' });

    // Assess
    expect(stack.sharing?.signingKey).toBeDefined();
    expect(stack.sharing?.shareImport).toBeUndefined();
  });

  it('shares nothing without an organisation', () => {
    expect(app({}).stack.sharing).toBeUndefined();
  });

  it('refuses publishers without the organisation, naming both keys', () => {
    expect(() =>
      app({ [CONTEXT_KEYS.sharingTrustedPublishers]: JSON.stringify(PUBLISHERS) }),
    ).toThrow('context ralph:sharingTrustedPublishers needs ralph:sharingOrganizationId');
  });

  it('refuses a publisher whose key is not its own, naming the context key and the field', () => {
    // Prepare
    const context = {
      [CONTEXT_KEYS.sharingOrganizationId]: 'o-a1b2c3d4e5',
      [CONTEXT_KEYS.sharingTrustedPublishers]: JSON.stringify([
        { ...PUBLISHERS[0], account: '444455556666' },
      ]),
    };

    // Act
    const build = () => app(context);

    // Assess
    expect(build).toThrow(InvalidInputError);
    expect(build).toThrow(/context ralph:sharingTrustedPublishers is invalid:\n {2}0\.keyArn/);
  });

  it('forwards announcements to the consumer buses given on the command line, and outputs the publish function', () => {
    // Prepare
    const buses = [
      'arn:aws:events:eu-west-1:111122223333:event-bus/one',
      'arn:aws:events:eu-west-1:444455556666:event-bus/two',
    ];

    // Act: `cdk deploy -c ralph:sharingOrganizationId=... -c ralph:sharingConsumerBuses=arn1,arn2`
    const { stack } = app({
      [CONTEXT_KEYS.sharingOrganizationId]: 'o-a1b2c3d4e5',
      [CONTEXT_KEYS.sharingConsumerBuses]: buses.join(' , '),
    });
    const template = Template.fromStack(stack);

    // Assess
    template.hasResourceProperties('AWS::Events::Rule', {
      EventBusName: 'default',
      Targets: buses.map((arn) => Match.objectLike({ Arn: arn })),
    });
    template.hasOutput('SharingPublishFunctionName', {
      Value: { Ref: logicalIdOf(stack, stack.sharing!.sharePublish.function) },
    });
  });

  it('takes the consumer buses as a list too, and forwards nothing without them', () => {
    // Act
    const listed = app({
      [CONTEXT_KEYS.sharingOrganizationId]: 'o-a1b2c3d4e5',
      [CONTEXT_KEYS.sharingConsumerBuses]: ['arn:aws:events:eu-west-1:111122223333:event-bus/one'],
    }).stack.sharing!.sharePublish;
    const none = app({ [CONTEXT_KEYS.sharingOrganizationId]: 'o-a1b2c3d4e5' }).stack.sharing!
      .sharePublish;

    // Assess
    expect(listed.forwardingRules).toHaveLength(1);
    expect(none.forwardingRules).toEqual([]);
    expect(none.forwardingRole).toBeUndefined();
  });

  it('refuses consumer buses without the organisation, naming both keys', () => {
    expect(() =>
      app({
        [CONTEXT_KEYS.sharingConsumerBuses]: 'arn:aws:events:eu-west-1:111122223333:event-bus/one',
      }),
    ).toThrow('context ralph:sharingConsumerBuses needs ralph:sharingOrganizationId');
  });
});

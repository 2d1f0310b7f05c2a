import { App, Stack } from 'aws-cdk-lib';
import { Match, Template } from 'aws-cdk-lib/assertions';
import * as kms from 'aws-cdk-lib/aws-kms';
import { describe, expect, it } from 'vitest';
import type { TrustedPublisher } from '../../lambdas/adapters/sharing/trusted-publishers.js';
import { cdkJsonContext } from '../../lib/ralph-app.js';
import { Sharing } from '../../lib/sharing.js';
import { Storage } from '../../lib/storage.js';
import { logicalIdOf, permissionsOf } from '../support/iam-permissions.js';
import { nagErrors } from '../support/nag.js';

const ORG = 'o-a1b2c3d4e5';
const PUBLISHERS: TrustedPublisher[] = [
  {
    account: '111122223333',
    keyArn: 'arn:aws:kms:eu-west-1:111122223333:key/0f0e0d0c-1111-2222-3333-444455556666',
    bucket: 'ralph-publisher-one',
  },
  {
    account: '444455556666',
    keyArn: 'arn:aws:kms:eu-central-1:444455556666:key/1a2b3c4d-1111-2222-3333-444455556666',
    bucket: 'ralph-publisher-two',
    bucketKeyArn: 'arn:aws:kms:eu-central-1:444455556666:key/9f8e7d6c-1111-2222-3333-444455556666',
  },
];

const CONSUMER_BUSES = [
  'arn:aws:events:eu-west-1:111122223333:event-bus/RalphStack-SharingBus1A2B3C4D',
  'arn:aws:events:eu-central-1:444455556666:event-bus/RalphStack-SharingBus5E6F7A8B',
];

interface Statement {
  Sid?: string;
  Effect: string;
  Principal?: unknown;
  Action: string | string[];
  Resource: unknown;
  Condition?: Record<string, Record<string, unknown>>;
}

const statementsOf = (template: Template, type: string, property: string): Statement[] =>
  Object.values(template.findResources(type)).flatMap(
    (resource) => (resource.Properties[property] as { Statement: Statement[] }).Statement,
  );

/** What anyone beyond this account is granted: statements allowing the `*` principal. */
const toEveryone = (statements: Statement[]) =>
  statements.filter(
    (statement) =>
      statement.Effect === 'Allow' && JSON.stringify(statement.Principal) === '{"AWS":"*"}',
  );

describe('Class: Sharing', () => {
  const app = new App({ context: { ...cdkJsonContext(), 'aws:cdk:bundling-stacks': [] } });
  const stack = new Stack(app, 'SharingTest', {
    env: { account: '777788889999', region: 'eu-west-1' },
  });
  const bucketKey = new kms.Key(stack, 'BucketKey', { enableKeyRotation: true });
  const storage = new Storage(stack, 'Storage', { encryptionKey: bucketKey });
  const sharing = new Sharing(stack, 'Sharing', {
    organizationId: ORG,
    trustedPublishers: PUBLISHERS,
    consumerBuses: CONSUMER_BUSES,
    storage,
  });
  sharing.addOutputs(stack);
  const template = Template.fromStack(stack);
  const bucketId = logicalIdOf(stack, storage.bucket);
  const importFn = sharing.shareImport!.function;
  const publish = sharing.sharePublish;

  it('lets the organisation read the bundle prefix, and nothing else, of the bucket', () => {
    // Act
    const granted = toEveryone(statementsOf(template, 'AWS::S3::BucketPolicy', 'PolicyDocument'));

    // Assess
    expect(granted).toEqual([
      {
        Sid: 'OrganisationReadsSharedBundles',
        Effect: 'Allow',
        Principal: { AWS: '*' },
        Action: 's3:GetObject',
        Resource: { 'Fn::Join': ['', [{ 'Fn::GetAtt': [bucketId, 'Arn'] }, '/shared/bundles/*']] },
        Condition: { StringEquals: { 'aws:PrincipalOrgID': ORG } },
      },
    ]);
  });

  it("lets the organisation decrypt with the bucket's key only through S3", () => {
    // Act
    const granted = toEveryone(statementsOf(template, 'AWS::KMS::Key', 'KeyPolicy'));

    // Assess
    expect(granted.filter((statement) => statement.Action === 'kms:Decrypt')).toEqual([
      {
        Sid: 'OrganisationDecryptsSharedBundles',
        Effect: 'Allow',
        Principal: { AWS: '*' },
        Action: 'kms:Decrypt',
        Resource: '*',
        Condition: {
          StringEquals: {
            'aws:PrincipalOrgID': ORG,
            'kms:ViaService': 's3.eu-west-1.amazonaws.com',
          },
        },
      },
    ]);
  });

  it('signs with an ECC_NIST_P256 SIGN_VERIFY key the organisation may read and verify with, not sign with', () => {
    // Prepare
    const keyId = logicalIdOf(stack, sharing.signingKey);

    // Act
    const key = template.toJSON().Resources[keyId];
    const granted = toEveryone(key.Properties.KeyPolicy.Statement as Statement[]);

    // Assess
    expect(key.Properties).toMatchObject({ KeySpec: 'ECC_NIST_P256', KeyUsage: 'SIGN_VERIFY' });
    expect(granted).toEqual([
      {
        Sid: 'OrganisationVerifiesBundles',
        Effect: 'Allow',
        Principal: { AWS: '*' },
        Action: ['kms:GetPublicKey', 'kms:Verify'],
        Resource: '*',
        Condition: { StringEquals: { 'aws:PrincipalOrgID': ORG } },
      },
    ]);
  });

  it('takes only Bundle Published events from the organisation on its bus', () => {
    // Act
    const policies = Object.values(template.findResources('AWS::Events::EventBusPolicy'));

    // Assess
    expect(policies).toHaveLength(1);
    expect(policies[0]!.Properties).toMatchObject({
      EventBusName: { Ref: logicalIdOf(stack, sharing.bus) },
      Statement: {
        // CDK prefixes the statement id it names the bus policy by.
        Sid: 'cdk-OrganisationAnnouncesBundles',
        Effect: 'Allow',
        Principal: { AWS: '*' },
        Action: 'events:PutEvents',
        Resource: { 'Fn::GetAtt': [logicalIdOf(stack, sharing.bus), 'Arn'] },
        Condition: {
          StringEquals: {
            'aws:PrincipalOrgID': ORG,
            'events:source': 'ralph-cloud.sharing',
            'events:detail-type': 'Bundle Published',
          },
        },
      },
    });
  });

  it("sends the trusted publishers' announcements on the bus to the import, with retries and a dead-letter queue", () => {
    template.hasResourceProperties('AWS::Events::Rule', {
      EventBusName: { Ref: logicalIdOf(stack, sharing.bus) },
      EventPattern: {
        source: ['ralph-cloud.sharing'],
        'detail-type': ['Bundle Published'],
        account: ['111122223333', '444455556666'],
      },
      Targets: [
        Match.objectLike({
          Arn: { 'Fn::GetAtt': [logicalIdOf(stack, importFn), 'Arn'] },
          RetryPolicy: { MaximumRetryAttempts: 8, MaximumEventAgeInSeconds: 21_600 },
          DeadLetterConfig: {
            Arn: {
              'Fn::GetAtt': [logicalIdOf(stack, sharing.shareImport!.deadLetterQueue), 'Arn'],
            },
          },
        }),
      ],
    });
  });

  it('tells the import function the table, the bucket and the trusted publishers', () => {
    template.hasResourceProperties('AWS::Lambda::Function', {
      Environment: {
        Variables: Match.objectLike({
          TABLE_NAME: { Ref: logicalIdOf(stack, storage.table) },
          BUCKET_NAME: { Ref: bucketId },
          TRUSTED_PUBLISHERS: JSON.stringify(PUBLISHERS),
        }),
      },
    });
  });

  it("grants the import function exactly the registry, the quarantine, the publishers' bundles and keys", () => {
    // Prepare
    const names = {
      [logicalIdOf(stack, storage.table)]: 'table',
      [bucketId]: 'bucket',
      [logicalIdOf(stack, bucketKey)]: 'key',
    };
    const registry = (action: string) =>
      `dynamodb:${action} table if ForAllValues:StringLike dynamodb:LeadingKeys REGISTRY#*`;

    // Act
    const granted = permissionsOf(template, stack, importFn, names);

    // Assess
    expect(granted).toEqual(
      [
        registry('GetItem'),
        registry('Query'),
        registry('PutItem'),
        'dynamodb:PutItem table if ForAllValues:StringLike dynamodb:LeadingKeys QUARANTINE',
        's3:GetObject bucket/registry/*/patterns/*/v*.json',
        's3:GetObject bucket/shared/quarantine/*',
        's3:PutObject bucket/registry/*/patterns/*/v*.json',
        's3:PutObject bucket/shared/quarantine/*',
        'kms:Decrypt key',
        'kms:DescribeKey key',
        'kms:Encrypt key',
        'kms:GenerateDataKey key',
        's3:GetObject arn:aws:s3:::ralph-publisher-one/shared/bundles/* if StringEquals s3:ResourceAccount 111122223333',
        's3:GetObject arn:aws:s3:::ralph-publisher-two/shared/bundles/* if StringEquals s3:ResourceAccount 444455556666',
        `kms:Decrypt ${PUBLISHERS[1]!.bucketKeyArn} if StringEquals kms:ViaService s3.eu-central-1.amazonaws.com`,
        `kms:GetPublicKey ${PUBLISHERS[0]!.keyArn}`,
        `kms:GetPublicKey ${PUBLISHERS[1]!.keyArn}`,
      ].sort(),
    );
  });

  it("grants the publish function exactly the registry's listing, its key's Sign, the two sharing prefixes and announcing on the default bus", () => {
    // Prepare
    const names = {
      [logicalIdOf(stack, storage.table)]: 'table',
      [bucketId]: 'bucket',
      [logicalIdOf(stack, bucketKey)]: 'key',
      [logicalIdOf(stack, sharing.signingKey)]: 'signing key',
    };

    // Act
    const granted = permissionsOf(template, stack, publish.function, names);

    // Assess
    expect(granted).toEqual(
      [
        'dynamodb:Query table if ForAllValues:StringLike dynamodb:LeadingKeys REGISTRY#*',
        's3:GetObject bucket/registry/*/patterns/*/v*.json',
        's3:GetObject bucket/shared/bundles/*',
        's3:GetObject bucket/shared/published/*',
        's3:PutObject bucket/shared/bundles/*',
        's3:PutObject bucket/shared/published/*',
        's3:ListBucket bucket if StringLike s3:prefix shared/published/*',
        'kms:Decrypt key',
        'kms:DescribeKey key',
        'kms:Encrypt key',
        'kms:GenerateDataKey key',
        'kms:Sign signing key',
        'events:PutEvents arn:aws:events:eu-west-1:777788889999:event-bus/default if StringEquals events:source ralph-cloud.sharing and StringEquals events:detail-type Bundle Published',
      ].sort(),
    );
  });

  it('tells the publish function the table, the bucket and the signing key', () => {
    template.hasResourceProperties('AWS::Lambda::Function', {
      Environment: {
        Variables: Match.objectLike({
          TABLE_NAME: { Ref: logicalIdOf(stack, storage.table) },
          BUCKET_NAME: { Ref: bucketId },
          SIGNING_KEY_ARN: { 'Fn::GetAtt': [logicalIdOf(stack, sharing.signingKey), 'Arn'] },
        }),
      },
    });
  });

  it('publishes the org registry once a day, with {} as the input', () => {
    template.hasResourceProperties('AWS::Events::Rule', {
      ScheduleExpression: 'rate(1 day)',
      Targets: [
        Match.objectLike({
          Arn: { 'Fn::GetAtt': [logicalIdOf(stack, publish.function), 'Arn'] },
          Input: '{}',
          RetryPolicy: { MaximumRetryAttempts: 2, MaximumEventAgeInSeconds: 3600 },
        }),
      ],
    });
  });

  it("forwards this account's Bundle Published events from its default bus to each consumer bus, with a role that may put on those only", () => {
    // Prepare
    const roleArn = { 'Fn::GetAtt': [logicalIdOf(stack, publish.forwardingRole!), 'Arn'] };

    // Act
    const role = template.toJSON().Resources[logicalIdOf(stack, publish.forwardingRole!)];

    // Assess
    template.hasResourceProperties('AWS::Events::Rule', {
      EventBusName: 'default',
      EventPattern: {
        source: ['ralph-cloud.sharing'],
        'detail-type': ['Bundle Published'],
        account: ['777788889999'],
      },
      Targets: CONSUMER_BUSES.map((arn) => Match.objectLike({ Arn: arn, RoleArn: roleArn })),
    });
    expect(role.Properties.AssumeRolePolicyDocument.Statement).toEqual([
      {
        Action: 'sts:AssumeRole',
        Effect: 'Allow',
        Principal: { Service: 'events.amazonaws.com' },
        Condition: { StringEquals: { 'aws:SourceAccount': '777788889999' } },
      },
    ]);
    template.hasResourceProperties('AWS::IAM::Policy', {
      Roles: [{ Ref: logicalIdOf(stack, publish.forwardingRole!) }],
      PolicyDocument: {
        Statement: [
          { Action: 'events:PutEvents', Effect: 'Allow', Resource: [...CONSUMER_BUSES].sort() },
        ],
      },
    });
  });

  it("publishes only by hand with publishEvery 'never', and forwards to six buses with two rules (five targets at most each)", () => {
    // Prepare
    const other = new Stack(
      new App({ context: { ...cdkJsonContext(), 'aws:cdk:bundling-stacks': [] } }),
      'Never',
      {
        env: { account: '777788889999', region: 'eu-west-1' },
      },
    );
    const buses = Array.from(
      { length: 6 },
      (_, index) => `arn:aws:events:eu-west-1:11112222333${index}:event-bus/sharing`,
    );

    // Act
    const built = new Sharing(other, 'Sharing', {
      organizationId: ORG,
      storage: new Storage(other, 'Storage'),
      publishEvery: 'never',
      consumerBuses: buses,
    });

    // Assess
    expect(built.sharePublish.schedule).toBeUndefined();
    const rules = Object.values(Template.fromStack(other).findResources('AWS::Events::Rule'));
    expect(rules.filter((rule) => rule.Properties.ScheduleExpression)).toEqual([]);
    expect(
      rules.map((rule) => (rule.Properties.Targets as { Arn: string }[]).map((t) => t.Arn)),
    ).toEqual([buses.slice(0, 5), buses.slice(5)]);
  });

  it('refuses a consumer bus that is not a bus ARN, before building anything', () => {
    expect(
      () =>
        new Sharing(new Stack(app, 'BadBus'), 'Sharing', {
          organizationId: ORG,
          consumerBuses: ['arn:aws:sqs:eu-west-1:111122223333:queue'],
          storage,
        }),
    ).toThrow(/consumerBuses must be EventBridge bus ARNs/);
  });

  it('outputs the bus, the signing key, the publish function and where bundles are published', () => {
    template.hasOutput('SharingPublishFunctionName', {
      Value: { Ref: logicalIdOf(stack, publish.function) },
    });
    template.hasOutput('SharingBusArn', {
      Value: { 'Fn::GetAtt': [logicalIdOf(stack, sharing.bus), 'Arn'] },
    });
    template.hasOutput('SharingSigningKeyArn', {
      Value: { 'Fn::GetAtt': [logicalIdOf(stack, sharing.signingKey), 'Arn'] },
    });
    template.hasOutput('SharingBundlePrefix', {
      Value: { 'Fn::Join': ['', ['s3://', { Ref: bucketId }, '/shared/bundles/']] },
    });
  });

  it('leaves no unacknowledged cdk-nag AwsSolutions errors', () => {
    expect(nagErrors(stack)).toEqual([]);
  });

  it('refuses an organisation id that is not one, before building anything', () => {
    expect(
      () =>
        new Sharing(new Stack(app, 'BadOrg'), 'Sharing', {
          organizationId: '123456789012',
          storage,
        }),
    ).toThrow(/organizationId must be an AWS Organizations id/);
  });
});

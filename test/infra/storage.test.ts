import { App, Stack } from 'aws-cdk-lib';
import { Match, Template } from 'aws-cdk-lib/assertions';
import * as kms from 'aws-cdk-lib/aws-kms';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TABLE_KEYS } from '../../lambdas/adapters/table-design.js';
import { cdkJsonContext } from '../../lib/ralph-app.js';
import type { StorageProps } from '../../lib/storage.js';
import { Storage } from '../../lib/storage.js';
import { nagErrors } from '../support/nag.js';

const outdirs: string[] = [];

function buildStorage(props?: StorageProps): { stack: Stack; storage: Storage } {
  const outdir = mkdtempSync(join(tmpdir(), 'ralph-infra-storage-'));
  outdirs.push(outdir);
  const app = new App({ context: cdkJsonContext(), outdir });
  const stack = new Stack(app, 'StorageTest');
  const storage = new Storage(stack, 'Storage', props);
  return { stack, storage };
}

afterAll(() => {
  for (const outdir of outdirs) rmSync(outdir, { recursive: true, force: true });
});

describe('Class: Storage', () => {
  describe('with defaults', () => {
    let stack: Stack;
    let template: Template;

    beforeAll(() => {
      ({ stack } = buildStorage());
      template = Template.fromStack(stack);
    });

    it('creates the single table with the shared key design and on-demand billing', () => {
      // Prepare
      const { partitionKey, sortKey, gsi1 } = TABLE_KEYS;

      // Act
      const tables = template.findResources('AWS::DynamoDB::Table');

      // Assess
      expect(Object.keys(tables)).toHaveLength(1);
      template.hasResourceProperties('AWS::DynamoDB::Table', {
        BillingMode: 'PAY_PER_REQUEST',
        KeySchema: [
          { AttributeName: partitionKey, KeyType: 'HASH' },
          { AttributeName: sortKey, KeyType: 'RANGE' },
        ],
        AttributeDefinitions: Match.arrayWith([
          { AttributeName: partitionKey, AttributeType: 'S' },
          { AttributeName: sortKey, AttributeType: 'S' },
          { AttributeName: gsi1.partitionKey, AttributeType: 'S' },
          { AttributeName: gsi1.sortKey, AttributeType: 'S' },
        ]),
        GlobalSecondaryIndexes: [
          {
            IndexName: gsi1.indexName,
            KeySchema: [
              { AttributeName: gsi1.partitionKey, KeyType: 'HASH' },
              { AttributeName: gsi1.sortKey, KeyType: 'RANGE' },
            ],
            Projection: { ProjectionType: 'ALL' },
          },
        ],
      });
    });

    it('turns on point-in-time recovery and encryption at rest', () => {
      // Prepare
      const expected = {
        PointInTimeRecoverySpecification: { PointInTimeRecoveryEnabled: true },
        SSESpecification: { SSEEnabled: true },
      };

      // Act
      const act = () => template.hasResourceProperties('AWS::DynamoDB::Table', expected);

      // Assess
      expect(act).not.toThrow();
    });

    it('expires items by their `expiration` attribute (the Run API idempotency records)', () => {
      // Prepare
      const expected = {
        TimeToLiveSpecification: { AttributeName: 'expiration', Enabled: true },
      };

      // Act
      const act = () => template.hasResourceProperties('AWS::DynamoDB::Table', expected);

      // Assess
      expect(act).not.toThrow();
    });

    it('protects the table from deletion and retains it with the stack', () => {
      // Prepare
      const expected = {
        Properties: Match.objectLike({ DeletionProtectionEnabled: true }),
        DeletionPolicy: 'Retain',
        UpdateReplacePolicy: 'Retain',
      };

      // Act
      const act = () => template.hasResource('AWS::DynamoDB::Table', expected);

      // Assess
      expect(act).not.toThrow();
    });

    it('creates an encrypted, versioned artefact bucket that blocks all public access', () => {
      // Prepare
      const expected = {
        BucketEncryption: {
          ServerSideEncryptionConfiguration: [
            { ServerSideEncryptionByDefault: { SSEAlgorithm: 'AES256' } },
          ],
        },
        VersioningConfiguration: { Status: 'Enabled' },
        PublicAccessBlockConfiguration: {
          BlockPublicAcls: true,
          BlockPublicPolicy: true,
          IgnorePublicAcls: true,
          RestrictPublicBuckets: true,
        },
        LoggingConfiguration: Match.objectLike({ DestinationBucketName: Match.anyValue() }),
      };

      // Act
      const act = () => template.hasResourceProperties('AWS::S3::Bucket', expected);

      // Assess
      expect(act).not.toThrow();
    });

    it('denies every request to the artefact bucket that does not use TLS', () => {
      // Prepare
      const denyInsecureTransport = Match.objectLike({
        Effect: 'Deny',
        Action: 's3:*',
        Condition: { Bool: { 'aws:SecureTransport': 'false' } },
      });

      // Act
      const policies = template.findResources('AWS::S3::BucketPolicy', {
        Properties: { PolicyDocument: { Statement: Match.arrayWith([denyInsecureTransport]) } },
      });

      // Assess: the artefact bucket and its access-log bucket
      expect(Object.keys(policies)).toHaveLength(2);
    });

    it('retains both buckets with the stack', () => {
      // Prepare
      const retained = { DeletionPolicy: 'Retain', UpdateReplacePolicy: 'Retain' };

      // Act
      const buckets = template.findResources('AWS::S3::Bucket', retained);

      // Assess
      expect(Object.keys(buckets)).toHaveLength(2);
    });

    it('leaves no unacknowledged cdk-nag AwsSolutions errors', () => {
      // Act
      const errors = nagErrors(stack);

      // Assess
      expect(errors).toEqual([]);
    });
  });

  describe('with destroyOnRemoval', () => {
    it('makes table and buckets disposable', () => {
      // Prepare
      const { stack } = buildStorage({ destroyOnRemoval: true });

      // Act
      const template = Template.fromStack(stack);

      // Assess
      template.hasResource('AWS::DynamoDB::Table', {
        Properties: Match.objectLike({ DeletionProtectionEnabled: false }),
        DeletionPolicy: 'Delete',
      });
      expect(
        Object.keys(template.findResources('AWS::S3::Bucket', { DeletionPolicy: 'Delete' })),
      ).toHaveLength(2);
      template.resourceCountIs('Custom::S3AutoDeleteObjects', 2);
      expect(nagErrors(stack)).toEqual([]);
    });
  });

  describe('with a customer-managed key', () => {
    it('encrypts table and artefact bucket with that key', () => {
      // Prepare
      const app = new App({ context: cdkJsonContext() });
      const keyStack = new Stack(app, 'KeyStack');
      const key = new kms.Key(keyStack, 'Key', { enableKeyRotation: true });
      new Storage(keyStack, 'Storage', { encryptionKey: key });

      // Act
      const template = Template.fromStack(keyStack);

      // Assess
      template.hasResourceProperties('AWS::DynamoDB::Table', {
        SSESpecification: { SSEEnabled: true, SSEType: 'KMS', KMSMasterKeyId: Match.anyValue() },
      });
      template.hasResourceProperties('AWS::S3::Bucket', {
        BucketEncryption: {
          ServerSideEncryptionConfiguration: [
            Match.objectLike({
              ServerSideEncryptionByDefault: Match.objectLike({ SSEAlgorithm: 'aws:kms' }),
              BucketKeyEnabled: true,
            }),
          ],
        },
      });
      expect(nagErrors(keyStack)).toEqual([]);
    });
  });

  describe('without server access logs', () => {
    it('creates no access-log bucket and acknowledges the finding', () => {
      // Prepare
      const { stack } = buildStorage({ serverAccessLogs: false });

      // Act
      const template = Template.fromStack(stack);

      // Assess
      template.resourceCountIs('AWS::S3::Bucket', 1);
      expect(nagErrors(stack)).toEqual([]);
    });

    it('rejects an access-log bucket together with serverAccessLogs: false', () => {
      // Prepare
      const stack = new Stack(new App({ context: cdkJsonContext() }), 'Clash');
      const logs = new Storage(stack, 'Other').bucket;

      // Act
      const act = () =>
        new Storage(stack, 'Storage', { serverAccessLogs: false, serverAccessLogsBucket: logs });

      // Assess
      expect(act).toThrow(/serverAccessLogs is false/);
    });
  });
});

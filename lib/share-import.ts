import { Duration, Stack, Token, Validations } from 'aws-cdk-lib';
import * as eventsTargets from 'aws-cdk-lib/aws-events-targets';
import * as events from 'aws-cdk-lib/aws-events';
import * as iam from 'aws-cdk-lib/aws-iam';
import type { NodejsFunction } from 'aws-cdk-lib/aws-lambda-nodejs';
import * as sqs from 'aws-cdk-lib/aws-sqs';
import { Construct } from 'constructs';
import {
  BUNDLE_PUBLISHED,
  sharingKeys,
  type TrustedPublisher,
} from '../lambdas/adapters/sharing/sharing-design.js';
import { join } from 'node:path';
import {
  REGISTRY_BODIES,
  REGISTRY_PARTITIONS,
  grantDataAccess,
  type DataAccess,
} from './data-access.js';
import { createNodejsFunction, type FunctionOptions } from './function-defaults.js';
import { HANDLERS_DIR } from './paths.js';
import type { Storage } from './storage.js';

/**
 * What receiving a bundle touches in this stack (core/steps/receive-bundle.ts, adapters/
 * sharing/dynamo-s3-quarantine.ts): the registry's patterns of the bundle's scopes, listed
 * (Query), created or merged (conditional PutItem, read back by GetItem when refused), with
 * the bodies of large ones (write-once PUT, which reads an existing key back); and a refused
 * envelope, written once to `shared/quarantine/` with one PutItem under `QUARANTINE`. No
 * rule, hint or run is touched, nothing is deleted.
 */
export const SHARE_IMPORT_ACCESS: DataAccess = {
  table: [
    {
      actions: ['dynamodb:GetItem', 'dynamodb:Query', 'dynamodb:PutItem'],
      partitions: [REGISTRY_PARTITIONS],
    },
    { actions: ['dynamodb:PutItem'], partitions: [sharingKeys.quarantinePk] },
  ],
  bucket: {
    read: [REGISTRY_BODIES],
    write: [REGISTRY_BODIES, `${sharingKeys.quarantinePrefix}*`],
    why: 'share-import writes registry pattern bodies named by scope, pattern id, version and digest, and refused envelopes named by their digest, all known only at run time.',
  },
};

/** Properties of {@link ShareImport}. */
export interface ShareImportProps {
  readonly storage: Storage;
  /** The bus trusted publishers announce bundles on. */
  readonly bus: events.IEventBus;
  /** At least one. */
  readonly trustedPublishers: readonly TrustedPublisher[];
  /** @default - the defaults of `createNodejsFunction` */
  readonly functionOptions?: FunctionOptions;
}

/**
 * The consumer side of sharing: a rule on the sharing bus taking "Bundle Published" events
 * from the trusted publishers' accounts only, and the function that reads each bundle from
 * its publisher's bucket and receives it (lambdas/handlers/share-import.ts). The function may
 * read the publishers' bundle prefixes (in their own accounts only), their signing keys'
 * public halves, and write the registry and the quarantine; nothing else.
 */
export class ShareImport extends Construct {
  public readonly function: NodejsFunction;
  public readonly rule: events.Rule;
  /** Events the function failed on after every retry, kept for 14 days for a redrive. */
  public readonly deadLetterQueue: sqs.Queue;

  constructor(scope: Construct, id: string, props: ShareImportProps) {
    super(scope, id);
    const publishers = props.trustedPublishers;
    if (publishers.length === 0)
      throw new Error('ShareImport: give at least one trusted publisher');

    this.function = createNodejsFunction(this, 'Function', {
      ...props.functionOptions,
      entry: join(HANDLERS_DIR, 'share-import.ts'),
      description: "Imports a trusted publisher's signed learning bundle when it is announced",
      environment: {
        TABLE_NAME: props.storage.table.tableName,
        BUCKET_NAME: props.storage.bucket.bucketName,
        TRUSTED_PUBLISHERS: JSON.stringify(publishers),
      },
    });
    grantDataAccess(this.function, SHARE_IMPORT_ACCESS, props.storage);
    this.grantPublishers(publishers);

    this.deadLetterQueue = new sqs.Queue(this, 'DeadLetters', {
      encryption: sqs.QueueEncryption.SQS_MANAGED,
      enforceSSL: true,
      retentionPeriod: Duration.days(14),
    });
    Validations.of(this.deadLetterQueue).acknowledge({
      id: 'AwsSolutions-SQS3',
      reason:
        'This queue is itself the dead-letter queue of the bundle-import rule; a queue for its failures would have nothing to receive.',
    });

    this.rule = new events.Rule(this, 'BundlePublished', {
      eventBus: props.bus,
      description: 'Bundles announced by trusted publishers: imported by share-import',
      eventPattern: {
        source: [BUNDLE_PUBLISHED.source],
        detailType: [BUNDLE_PUBLISHED.detailType],
        account: [...new Set(publishers.map((publisher) => publisher.account))],
      },
      targets: [
        new eventsTargets.LambdaFunction(this.function, {
          deadLetterQueue: this.deadLetterQueue,
          // A registry or KMS out of reach for a while: retried with EventBridge's backoff,
          // then kept in the queue.
          retryAttempts: 8,
          maxEventAge: Duration.hours(6),
        }),
      ],
    });
  }

  /**
   * Each publisher's bundle prefix (only in a bucket of that publisher's account:
   * `s3:ResourceAccount`, since bucket names are global), its signing key's public half,
   * and its bucket key's Decrypt through S3 when it has one.
   */
  private grantPublishers(publishers: readonly TrustedPublisher[]): void {
    const { partition } = Stack.of(this);
    // How cdk-nag writes the partition in a finding: resolved when the stack's environment is.
    const nagPartition = Token.isUnresolved(partition) ? '<AWS::Partition>' : partition;
    for (const publisher of publishers) {
      const prefix = `arn:${partition}:s3:::${publisher.bucket}/${sharingKeys.bundlePrefix}*`;
      this.function.addToRolePolicy(
        new iam.PolicyStatement({
          actions: ['s3:GetObject'],
          resources: [prefix],
          conditions: { StringEquals: { 's3:ResourceAccount': publisher.account } },
        }),
      );
      Validations.of(this.function).acknowledge({
        id: `AwsSolutions-IAM5[Resource::arn:${nagPartition}:s3:::${publisher.bucket}/${sharingKeys.bundlePrefix}*]`,
        reason:
          "A trusted publisher's published bundles, named by their digest, known only when announced; only in a bucket of the publisher's account.",
      });
      if (publisher.bucketKeyArn)
        this.function.addToRolePolicy(
          new iam.PolicyStatement({
            actions: ['kms:Decrypt'],
            resources: [publisher.bucketKeyArn],
            // The key's region is its bucket's: only S3 there may use it for this function.
            conditions: {
              StringEquals: {
                'kms:ViaService': `s3.${publisher.bucketKeyArn.split(':')[3]}.amazonaws.com`,
              },
            },
          }),
        );
    }
    this.function.addToRolePolicy(
      new iam.PolicyStatement({
        actions: ['kms:GetPublicKey'],
        resources: [...new Set(publishers.map((publisher) => publisher.keyArn))],
      }),
    );
  }
}

import { Duration, RemovalPolicy, Validations } from 'aws-cdk-lib';
import * as dynamodb from 'aws-cdk-lib/aws-dynamodb';
import type * as kms from 'aws-cdk-lib/aws-kms';
import * as s3 from 'aws-cdk-lib/aws-s3';
import { Construct } from 'constructs';
import { TABLE_KEYS } from '../lambdas/adapters/table-design.js';

/**
 * Properties of {@link Storage}.
 */
export interface StorageProps {
  /**
   * Make the table and the buckets disposable: `RemovalPolicy.DESTROY`, no deletion
   * protection, and objects emptied on stack deletion. Meant for development stacks only.
   *
   * @default false - table and buckets are retained and the table is deletion-protected
   */
  readonly destroyOnRemoval?: boolean;

  /**
   * Customer-managed KMS key for the table and the artefact bucket.
   *
   * @default - the table uses the AWS-managed DynamoDB key and the bucket S3-managed keys
   */
  readonly encryptionKey?: kms.IKey;

  /**
   * Bucket that receives the artefact bucket's server access logs.
   *
   * @default - a dedicated access-log bucket is created, unless `serverAccessLogs` is false
   */
  readonly serverAccessLogsBucket?: s3.IBucket;

  /**
   * Whether the artefact bucket writes server access logs.
   *
   * @default true
   */
  readonly serverAccessLogs?: boolean;

  /**
   * How long superseded versions of artefact objects are kept. Artefacts are written
   * once, so old versions only exist after an accidental overwrite or delete.
   *
   * @default Duration.days(30)
   */
  readonly noncurrentVersionExpiration?: Duration;
}

/**
 * The run store: one DynamoDB table with the generic single-table keys of
 * `lambdas/adapters/table-design.ts`, and one versioned S3 bucket for artefacts
 * (manifests, prompts, transcripts, diffs, scores).
 *
 * Secure defaults live here: on-demand billing, encryption at rest, point-in-time
 * recovery, TLS-only bucket access, all public access blocked, retained on stack deletion.
 *
 * Nothing is granted here: each function and role gets exactly what its code does
 * (lib/data-access.ts, lib/runner-role.ts).
 *
 * @example
 * const storage = new Storage(stack, 'Storage');
 */
export class Storage extends Construct {
  /** The single table (`pk`/`sk`, GSI `gsi1` on `gsi1pk`/`gsi1sk`). */
  public readonly table: dynamodb.Table;

  /** The artefact bucket. */
  public readonly bucket: s3.Bucket;

  /** The access-log bucket, when this construct created one. */
  public readonly accessLogsBucket?: s3.Bucket;

  /** The customer-managed key, when one was given. */
  public readonly encryptionKey?: kms.IKey;

  constructor(scope: Construct, id: string, props: StorageProps = {}) {
    super(scope, id);

    if (props.serverAccessLogs === false && props.serverAccessLogsBucket) {
      throw new Error('Storage: serverAccessLogsBucket was given but serverAccessLogs is false');
    }

    this.encryptionKey = props.encryptionKey;
    const destroy = props.destroyOnRemoval ?? false;
    const removalPolicy = destroy ? RemovalPolicy.DESTROY : RemovalPolicy.RETAIN;

    this.table = new dynamodb.Table(this, 'Table', {
      partitionKey: { name: TABLE_KEYS.partitionKey, type: dynamodb.AttributeType.STRING },
      sortKey: { name: TABLE_KEYS.sortKey, type: dynamodb.AttributeType.STRING },
      billingMode: dynamodb.BillingMode.PAY_PER_REQUEST,
      pointInTimeRecoverySpecification: { pointInTimeRecoveryEnabled: true },
      ...(props.encryptionKey
        ? {
            encryption: dynamodb.TableEncryption.CUSTOMER_MANAGED,
            encryptionKey: props.encryptionKey,
          }
        : { encryption: dynamodb.TableEncryption.AWS_MANAGED }),
      deletionProtection: !destroy,
      removalPolicy,
      // Only the Run API's idempotency records carry it (Powertools' `expiration`, epoch
      // seconds): they are kept a day. Runs, tasks and pattern sets never expire.
      timeToLiveAttribute: 'expiration',
    });
    this.table.addGlobalSecondaryIndex({
      indexName: TABLE_KEYS.gsi1.indexName,
      partitionKey: { name: TABLE_KEYS.gsi1.partitionKey, type: dynamodb.AttributeType.STRING },
      sortKey: { name: TABLE_KEYS.gsi1.sortKey, type: dynamodb.AttributeType.STRING },
      projectionType: dynamodb.ProjectionType.ALL,
    });

    if (props.serverAccessLogs !== false && !props.serverAccessLogsBucket) {
      this.accessLogsBucket = this.createAccessLogsBucket(destroy);
    }
    const accessLogsBucket = props.serverAccessLogsBucket ?? this.accessLogsBucket;

    this.bucket = new s3.Bucket(this, 'ArtefactBucket', {
      ...(props.encryptionKey
        ? {
            encryption: s3.BucketEncryption.KMS,
            encryptionKey: props.encryptionKey,
            // One data key per bucket instead of one KMS call per object: cheaper and
            // avoids KMS throttling when many iterations write at once.
            bucketKeyEnabled: true,
          }
        : { encryption: s3.BucketEncryption.S3_MANAGED }),
      versioned: true,
      blockPublicAccess: s3.BlockPublicAccess.BLOCK_ALL,
      enforceSSL: true,
      objectOwnership: s3.ObjectOwnership.BUCKET_OWNER_ENFORCED,
      serverAccessLogsBucket: accessLogsBucket,
      serverAccessLogsPrefix: accessLogsBucket ? 'artefacts/' : undefined,
      lifecycleRules: [
        {
          abortIncompleteMultipartUploadAfter: Duration.days(7),
          noncurrentVersionExpiration: props.noncurrentVersionExpiration ?? Duration.days(30),
        },
      ],
      removalPolicy,
      autoDeleteObjects: destroy,
    });

    if (!accessLogsBucket) {
      Validations.of(this.bucket).acknowledge({
        id: 'AwsSolutions-S1',
        reason: 'Server access logging was turned off explicitly with serverAccessLogs: false.',
      });
    }
  }

  private createAccessLogsBucket(destroy: boolean): s3.Bucket {
    const bucket = new s3.Bucket(this, 'AccessLogsBucket', {
      // S3 server access logging can only deliver to buckets encrypted with S3-managed keys.
      encryption: s3.BucketEncryption.S3_MANAGED,
      blockPublicAccess: s3.BlockPublicAccess.BLOCK_ALL,
      enforceSSL: true,
      objectOwnership: s3.ObjectOwnership.BUCKET_OWNER_ENFORCED,
      lifecycleRules: [{ expiration: Duration.days(90) }],
      removalPolicy: destroy ? RemovalPolicy.DESTROY : RemovalPolicy.RETAIN,
      autoDeleteObjects: destroy,
    });
    Validations.of(bucket).acknowledge({
      id: 'AwsSolutions-S1',
      reason:
        'This is the access-log bucket itself; logging its own access would recurse without adding an audit trail.',
    });
    return bucket;
  }
}

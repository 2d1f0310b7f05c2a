import type { Acknowledgment, CfnElement } from 'aws-cdk-lib';
import { Stack, Validations } from 'aws-cdk-lib';
import * as iam from 'aws-cdk-lib/aws-iam';
import type { IConstruct } from 'constructs';
import { TABLE_KEYS } from '../lambdas/adapters/table-design.js';
import type { Storage } from './storage.js';

/**
 * The partitions of runs, with their tasks and iterations (`RUN#<runId>`: `runStoreKeys.runPk`
 * in lambdas/adapters/dynamodb/run-items.ts; test/infra/api.test.ts keeps the two in step).
 */
export const RUN_PARTITIONS = 'RUN#*';

/**
 * The partitions of projects, which hold their pattern sets' pointer and version items
 * (`PROJECT#<projectId>`: `patternSetKeys.projectPk` in
 * lambdas/adapters/pattern-sets/pattern-set-keys.ts; test/infra/functions.test.ts keeps the
 * two in step).
 */
export const PROJECT_PARTITIONS = 'PROJECT#*';

/**
 * The partitions of the cross-loop registry, one per scope (`REGISTRY#org`,
 * `REGISTRY#project:<projectId>`: `learningKeys.registryPk` in
 * lambdas/adapters/dynamodb/learning-items.ts; test/infra/functions.test.ts keeps the two in
 * step). A project's rules are in its `PROJECT#` partition, a run's hints in its `RUN#` one.
 */
export const REGISTRY_PARTITIONS = 'REGISTRY#*';

/**
 * A project's spend per day (`PROJECT#<id>` / `SPEND#<day>`:
 * lambdas/adapters/dynamodb/project-spend-items.ts): added to atomically (UpdateItem, ADD)
 * by whichever step records an iteration that cost something (advance, init-run after a dead
 * segment, a cancel), and read (GetItem) against `limits.maxCostUsdPerProjectDay`.
 */
export const PROJECT_SPEND = {
  actions: ['dynamodb:GetItem', 'dynamodb:UpdateItem'],
  partitions: [PROJECT_PARTITIONS],
} as const;

/**
 * Registry patterns too large for their item (`artefactKeys.registryBody`):
 * `registry/{org|projects/<id>}/patterns/<patternId>/v<n>-<digest>.json`.
 */
export const REGISTRY_BODIES = 'registry/*/patterns/*/v*.json';

/**
 * The partitions of error groups (`GROUP#<source>#<fingerprint>`: `incidentKeys.groupPk` in
 * lambdas/adapters/dynamodb/incident-items.ts).
 */
export const ERROR_GROUP_PARTITIONS = 'GROUP#*';

/** What one function may do on the table: one statement. */
export interface TableAccess {
  readonly actions: readonly string[];
  /** Also the `gsi1` listing index (runs, newest first). */
  readonly listingIndex?: boolean;
  /**
   * Only items whose partition key matches one of these (`dynamodb:LeadingKeys`, with
   * `ForAllValues:StringLike`). It holds for every item of a BatchWriteItem and for the
   * partition key of a Query.
   */
  readonly partitions?: readonly string[];
}

/** What one function may do on the artefact bucket, by key pattern. */
export interface BucketAccess {
  /** `s3:GetObject` (GET and HEAD). */
  readonly read?: readonly string[];
  /**
   * `s3:PutObject`, and `s3:GetObject` as well: the write-once put (S3ArtefactStore.put)
   * reads a key that already exists back, to accept the same bytes.
   */
  readonly write?: readonly string[];
  /**
   * Keys the code reads or checks (HEAD) that may not exist, telling "not written" from
   * "denied" by the 404: S3 answers 404 only to a caller allowed `s3:ListBucket`, else 403.
   * S3 evaluates that check with the requested key as `s3:prefix`, so a ListBucket
   * statement conditioned on these patterns is enough.
   */
  readonly mayBeMissing?: readonly string[];
  /** Why the key patterns hold wildcards, for the cdk-nag acknowledgement. */
  readonly why: string;
}

/** Everything one function may do on the storage: the table, the bucket, their key. */
export interface DataAccess {
  /** One statement each, so that different partitions get different actions. */
  readonly table?: readonly TableAccess[];
  readonly bucket?: BucketAccess;
}

/**
 * Grants one function (or role) exactly its {@link DataAccess}, with the customer-managed
 * key when the storage has one, and acknowledges the cdk-nag findings of its key patterns
 * on it.
 *
 * @example
 * grantDataAccess(fn, { table: [{ actions: ['dynamodb:GetItem'], partitions: [RUN_PARTITIONS] }] }, storage);
 */
export function grantDataAccess(
  grantee: iam.IGrantable & IConstruct,
  access: DataAccess,
  storage: Storage,
): void {
  const principal = grantee.grantPrincipal;
  for (const table of access.table ?? [])
    principal.addToPrincipalPolicy(tableStatement(storage, table));
  if (access.bucket)
    for (const statement of bucketStatements(storage, access.bucket))
      principal.addToPrincipalPolicy(statement);
  grantKey(grantee, access, storage);
  if (access.bucket) Validations.of(grantee).acknowledge(...objectFindings(storage, access.bucket));
}

function tableStatement(storage: Storage, table: TableAccess): iam.PolicyStatement {
  return new iam.PolicyStatement({
    actions: [...table.actions],
    resources: [
      storage.table.tableArn,
      ...(table.listingIndex
        ? [`${storage.table.tableArn}/index/${TABLE_KEYS.gsi1.indexName}`]
        : []),
    ],
    ...(table.partitions
      ? {
          conditions: {
            'ForAllValues:StringLike': { 'dynamodb:LeadingKeys': [...table.partitions] },
          },
        }
      : {}),
  });
}

function bucketStatements(storage: Storage, bucket: BucketAccess): iam.PolicyStatement[] {
  const { read = [], write = [], mayBeMissing = [] } = bucket;
  const objects = (patterns: readonly string[]) =>
    patterns.map((key) => storage.bucket.arnForObjects(key));
  const readable = [...new Set([...read, ...write])];
  return [
    ...(readable.length > 0
      ? [new iam.PolicyStatement({ actions: ['s3:GetObject'], resources: objects(readable) })]
      : []),
    ...(write.length > 0
      ? [new iam.PolicyStatement({ actions: ['s3:PutObject'], resources: objects(write) })]
      : []),
    ...(mayBeMissing.length > 0
      ? [
          new iam.PolicyStatement({
            actions: ['s3:ListBucket'],
            resources: [storage.bucket.bucketArn],
            conditions: { StringLike: { 's3:prefix': [...mayBeMissing] } },
          }),
        ]
      : []),
  ];
}

/**
 * The customer-managed key, when there is one: Decrypt (and DescribeKey, as the table's
 * own read grant has it) to read the table or the bucket, GenerateDataKey and Encrypt to
 * write an object. The exact actions, where Storage's read-write grant takes CDK's wildcards.
 */
function grantKey(grantee: iam.IGrantable, access: DataAccess, storage: Storage): void {
  const key = storage.encryptionKey;
  const usesStorage = (access.table?.length ?? 0) > 0 || access.bucket !== undefined;
  if (!key || !usesStorage) return;
  const writesObjects = (access.bucket?.write?.length ?? 0) > 0;
  key.grant(
    grantee,
    'kms:Decrypt',
    'kms:DescribeKey',
    ...(writesObjects ? ['kms:Encrypt', 'kms:GenerateDataKey'] : []),
  );
}

/** The AwsSolutions-IAM5 finding of each object key pattern, with why it is acceptable. */
function objectFindings(storage: Storage, bucket: BucketAccess): Acknowledgment[] {
  const stack = Stack.of(storage);
  const bucketArn = `<${stack.resolve((storage.bucket.node.defaultChild as CfnElement).logicalId)}.Arn>`;
  const patterns = new Set([...(bucket.read ?? []), ...(bucket.write ?? [])]);
  return [...patterns].map((key) => ({
    id: `AwsSolutions-IAM5[Resource::${bucketArn}/${key}]`,
    reason: bucket.why,
  }));
}

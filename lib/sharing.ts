import { CfnOutput, RemovalPolicy, Stack, type Duration } from 'aws-cdk-lib';
import * as events from 'aws-cdk-lib/aws-events';
import * as iam from 'aws-cdk-lib/aws-iam';
import * as kms from 'aws-cdk-lib/aws-kms';
import { Construct } from 'constructs';
import {
  BUNDLE_PUBLISHED,
  sharingKeys,
  type TrustedPublisher,
} from '../lambdas/adapters/sharing/sharing-design.js';
import type { FunctionOptions } from './function-defaults.js';
import { ShareImport } from './share-import.js';
import { SharePublish } from './share-publish.js';
import type { Storage } from './storage.js';

/** An AWS Organizations id. */
const ORGANIZATION_ID = /^o-[a-z0-9]{10,32}$/;

/** Properties of {@link Sharing}. */
export interface SharingProps {
  /** The organisation whose accounts may read this stack's bundles and announce theirs (`o-...`). */
  readonly organizationId: string;

  /**
   * The publishers whose bundles this stack imports: account, signing key ARN, bucket (and
   * its key, if customer-managed).
   *
   * @default - none: this stack publishes only
   */
  readonly trustedPublishers?: readonly TrustedPublisher[];

  /**
   * How often the org registry is published; `'never'` publishes only when the function is
   * invoked by hand.
   *
   * @default Duration.days(1)
   */
  readonly publishEvery?: Duration | 'never';

  /**
   * The consumers' sharing buses (their `SharingBusArn` outputs), to which this stack's
   * announcements are forwarded from its default bus.
   *
   * @default - none
   */
  readonly consumerBuses?: readonly string[];

  /** The artefact bucket (bundles are published under `shared/bundles/`) and the table. */
  readonly storage: Storage;

  /**
   * Schedule the signing key's deletion when the stack is deleted (development stacks only).
   *
   * @default false - the key is retained
   */
  readonly destroyOnRemoval?: boolean;

  /** @default - the defaults of `createNodejsFunction` */
  readonly functionOptions?: FunctionOptions;
}

/**
 * Learning shared between the accounts of one organisation. The publisher side: a signing
 * key (ECC_NIST_P256, SIGN_VERIFY) whose public half the organisation may read and verify
 * with, and the `shared/bundles/` prefix of the artefact bucket, readable by the
 * organisation (and the bucket key, when the bucket has a customer-managed one, usable for
 * that through S3), and the function that publishes the registry there on a schedule and by
 * hand, with the rule forwarding its announcements to the consumers' buses (SharePublish).
 * The consumer side: a bus accepting "Bundle Published" events from the
 * organisation and, given trusted publishers, the rule and function that import theirs
 * (ShareImport). Every grant to others is conditioned on `aws:PrincipalOrgID`.
 *
 * @example
 * new Sharing(stack, 'Sharing', { organizationId: 'o-a1b2c3d4e5', storage, trustedPublishers });
 */
export class Sharing extends Construct {
  /** Signs this account's bundles (`kms:Sign` stays with the account's own IAM policies). */
  public readonly signingKey: kms.Key;
  /** Where bundles are announced to this stack. */
  public readonly bus: events.EventBus;
  /** The publisher side: the publish function, its schedule, the forwarding to consumers. */
  public readonly sharePublish: SharePublish;
  /** The consumer side, when publishers are trusted. */
  public readonly shareImport?: ShareImport;
  /** `s3://<bucket>/shared/bundles/`: where this account publishes. */
  public readonly bundleLocation: string;

  constructor(scope: Construct, id: string, props: SharingProps) {
    super(scope, id);
    if (!ORGANIZATION_ID.test(props.organizationId))
      throw new Error(
        `Sharing: organizationId must be an AWS Organizations id (o- and 10 to 32 lowercase letters or digits), not "${props.organizationId}"`,
      );
    const inOrganization = { StringEquals: { 'aws:PrincipalOrgID': props.organizationId } };
    const { bucket } = props.storage;

    this.signingKey = new kms.Key(this, 'SigningKey', {
      description: 'Signs learning bundles shared with the organisation (ECDSA P-256)',
      keySpec: kms.KeySpec.ECC_NIST_P256,
      keyUsage: kms.KeyUsage.SIGN_VERIFY,
      removalPolicy: props.destroyOnRemoval ? RemovalPolicy.DESTROY : RemovalPolicy.RETAIN,
    });
    this.signingKey.addToResourcePolicy(
      new iam.PolicyStatement({
        sid: 'OrganisationVerifiesBundles',
        principals: [new iam.AnyPrincipal()],
        actions: ['kms:GetPublicKey', 'kms:Verify'],
        resources: ['*'],
        conditions: inOrganization,
      }),
    );

    bucket.addToResourcePolicy(
      new iam.PolicyStatement({
        sid: 'OrganisationReadsSharedBundles',
        principals: [new iam.AnyPrincipal()],
        actions: ['s3:GetObject'],
        resources: [bucket.arnForObjects(`${sharingKeys.bundlePrefix}*`)],
        conditions: inOrganization,
      }),
    );
    // Through S3 only: the bucket policy above holds the organisation's reads to the prefix.
    // The encryption context (the bucket's ARN, with S3 Bucket Keys) cannot be named here:
    // the bucket already refers to the key, so the key's policy referring to the bucket would
    // be a circular dependency.
    props.storage.encryptionKey?.addToResourcePolicy(
      new iam.PolicyStatement({
        sid: 'OrganisationDecryptsSharedBundles',
        principals: [new iam.AnyPrincipal()],
        actions: ['kms:Decrypt'],
        resources: ['*'],
        conditions: {
          StringEquals: {
            'aws:PrincipalOrgID': props.organizationId,
            'kms:ViaService': `s3.${Stack.of(this).region}.amazonaws.com`,
          },
        },
      }),
    );

    this.bus = new events.EventBus(this, 'Bus', {
      description: 'Learning bundles announced by the organisation',
    });
    this.bus.addToResourcePolicy(
      new iam.PolicyStatement({
        sid: 'OrganisationAnnouncesBundles',
        principals: [new iam.AnyPrincipal()],
        actions: ['events:PutEvents'],
        resources: [this.bus.eventBusArn],
        conditions: {
          StringEquals: {
            'aws:PrincipalOrgID': props.organizationId,
            'events:source': BUNDLE_PUBLISHED.source,
            'events:detail-type': BUNDLE_PUBLISHED.detailType,
          },
        },
      }),
    );

    this.sharePublish = new SharePublish(this, 'Publish', {
      storage: props.storage,
      signingKey: this.signingKey,
      ...(props.publishEvery === undefined ? {} : { publishEvery: props.publishEvery }),
      ...(props.consumerBuses ? { consumerBuses: props.consumerBuses } : {}),
      ...(props.functionOptions ? { functionOptions: props.functionOptions } : {}),
    });

    if ((props.trustedPublishers?.length ?? 0) > 0)
      this.shareImport = new ShareImport(this, 'Import', {
        storage: props.storage,
        bus: this.bus,
        trustedPublishers: props.trustedPublishers ?? [],
        ...(props.functionOptions ? { functionOptions: props.functionOptions } : {}),
      });

    this.bundleLocation = `s3://${bucket.bucketName}/${sharingKeys.bundlePrefix}`;
  }

  /** The stack's outputs a publisher and its consumers need. */
  addOutputs(stack: Stack): void {
    new CfnOutput(stack, 'SharingBusArn', {
      value: this.bus.eventBusArn,
      description: "Where the organisation's publishers announce bundles to this stack",
    });
    new CfnOutput(stack, 'SharingSigningKeyArn', {
      value: this.signingKey.keyArn,
      description: "This account's bundle signing key: the keyArn consumers trust",
    });
    new CfnOutput(stack, 'SharingPublishFunctionName', {
      value: this.sharePublish.function.functionName,
      description: 'Publishes the registry now: aws lambda invoke --function-name <this> out.json',
    });
    new CfnOutput(stack, 'SharingBundlePrefix', {
      value: this.bundleLocation,
      description: 'Where this account publishes signed bundles (readable by the organisation)',
    });
  }
}

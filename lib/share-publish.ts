import { Duration, Stack } from 'aws-cdk-lib';
import * as eventsTargets from 'aws-cdk-lib/aws-events-targets';
import * as events from 'aws-cdk-lib/aws-events';
import * as iam from 'aws-cdk-lib/aws-iam';
import type * as kms from 'aws-cdk-lib/aws-kms';
import type { NodejsFunction } from 'aws-cdk-lib/aws-lambda-nodejs';
import { Construct } from 'constructs';
import { join } from 'node:path';
import { BUNDLE_PUBLISHED, sharingKeys } from '../lambdas/adapters/sharing/sharing-design.js';
import {
  REGISTRY_BODIES,
  REGISTRY_PARTITIONS,
  grantDataAccess,
  type DataAccess,
} from './data-access.js';
import { createNodejsFunction, type FunctionOptions } from './function-defaults.js';
import { HANDLERS_DIR } from './paths.js';
import type { Storage } from './storage.js';

/** An EventBridge bus ARN in any account and region of the standard partitions. */
const BUS_ARN = /^arn:aws(-[a-z]+)*:events:[a-z0-9-]+:\d{12}:event-bus\/[A-Za-z0-9._\-/]+$/;

/** EventBridge takes at most five targets per rule. */
const TARGETS_PER_RULE = 5;

/**
 * What publishing touches in this stack (core/steps/publish-bundle.ts): the registry's
 * patterns of the published scopes, listed (Query) with the bodies of large ones; the
 * envelope, written once under `shared/bundles/` (a write-once PUT reads an existing key
 * back); and what was published, by content digest, under `shared/published/`, looked up
 * first (HEAD, which is told "not there" only with a ListBucket on that prefix). Nothing of
 * the registry is written, no run is read.
 */
export const SHARE_PUBLISH_ACCESS: DataAccess = {
  table: [{ actions: ['dynamodb:Query'], partitions: [REGISTRY_PARTITIONS] }],
  bucket: {
    read: [REGISTRY_BODIES],
    write: [`${sharingKeys.bundlePrefix}*`, `${sharingKeys.publishedPrefix}*`],
    mayBeMissing: [`${sharingKeys.publishedPrefix}*`],
    why: 'share-publish reads registry pattern bodies named by scope, pattern id, version and digest, and writes envelopes and publication records named by digests, all known only at run time.',
  },
};

/** Properties of {@link SharePublish}. */
export interface SharePublishProps {
  readonly storage: Storage;
  /** The stack's bundle signing key (ECC_NIST_P256). */
  readonly signingKey: kms.IKey;
  /**
   * How often the org registry is published; `'never'` publishes only when invoked by hand.
   *
   * @default Duration.days(1)
   */
  readonly publishEvery?: Duration | 'never';
  /**
   * The consumers' sharing buses (their `SharingBusArn` outputs), to which this stack's
   * "Bundle Published" events are forwarded from its default bus.
   *
   * @default - none: announcements stay on this account's default bus
   */
  readonly consumerBuses?: readonly string[];
  /** @default - the defaults of `createNodejsFunction` */
  readonly functionOptions?: FunctionOptions;
}

/**
 * The publisher side of sharing, deployed: the function that seals the registry with the
 * signing key, writes it under `shared/bundles/` and announces it on the account's default
 * bus (lambdas/handlers/share-publish.ts), run on a schedule and by hand; and the rule that
 * forwards those announcements to the consumers' buses, with the role EventBridge puts them
 * with. The function may list the registry, sign with the one key, write the two sharing
 * prefixes and announce on the default bus; nothing else.
 */
export class SharePublish extends Construct {
  public readonly function: NodejsFunction;
  /** Runs the function every `publishEvery`, unless that is `'never'`. */
  public readonly schedule?: events.Rule;
  /** Forward announcements to the consumer buses, five targets each (EventBridge's limit). */
  public readonly forwardingRules: events.Rule[] = [];
  /** Assumed by EventBridge to put the forwarded events on the consumer buses. */
  public readonly forwardingRole?: iam.Role;

  constructor(scope: Construct, id: string, props: SharePublishProps) {
    super(scope, id);
    const consumerBuses = [...new Set(props.consumerBuses ?? [])];
    for (const arn of consumerBuses)
      if (!BUS_ARN.test(arn))
        throw new Error(
          `SharePublish: consumerBuses must be EventBridge bus ARNs (a consumer stack's SharingBusArn output, arn:aws:events:<region>:<account>:event-bus/<name>), not "${arn}"`,
        );
    const stack = Stack.of(this);
    const defaultBus = events.EventBus.fromEventBusName(this, 'DefaultBus', 'default');

    this.function = createNodejsFunction(this, 'Function', {
      ...props.functionOptions,
      entry: join(HANDLERS_DIR, 'share-publish.ts'),
      description:
        "Publishes the registry as a bundle signed with the stack's key, and announces it",
      environment: {
        TABLE_NAME: props.storage.table.tableName,
        BUCKET_NAME: props.storage.bucket.bucketName,
        SIGNING_KEY_ARN: props.signingKey.keyArn,
      },
    });
    grantDataAccess(this.function, SHARE_PUBLISH_ACCESS, props.storage);
    // Sign only: the envelope needs no public key (consumers read it from KMS themselves).
    this.function.addToRolePolicy(
      new iam.PolicyStatement({ actions: ['kms:Sign'], resources: [props.signingKey.keyArn] }),
    );
    this.function.addToRolePolicy(
      new iam.PolicyStatement({
        actions: ['events:PutEvents'],
        resources: [defaultBus.eventBusArn],
        conditions: {
          StringEquals: {
            'events:source': BUNDLE_PUBLISHED.source,
            'events:detail-type': BUNDLE_PUBLISHED.detailType,
          },
        },
      }),
    );

    const every = props.publishEvery ?? Duration.days(1);
    if (every !== 'never')
      this.schedule = new events.Rule(this, 'Schedule', {
        description: 'Publishes the org registry as a signed bundle',
        schedule: events.Schedule.rate(every),
        targets: [
          new eventsTargets.LambdaFunction(this.function, {
            // The default scopes; the scheduled event itself is not input the function takes.
            event: events.RuleTargetInput.fromObject({}),
            // A missed run is made good by the next one: no dead-letter queue.
            retryAttempts: 2,
            maxEventAge: Duration.hours(1),
          }),
        ],
      });

    if (consumerBuses.length > 0) {
      this.forwardingRole = new iam.Role(this, 'ForwardingRole', {
        description: "Lets EventBridge put this stack's bundle announcements on consumer buses",
        assumedBy: new iam.ServicePrincipal('events.amazonaws.com', {
          conditions: { StringEquals: { 'aws:SourceAccount': stack.account } },
        }),
      });
      this.forwardingRole.addToPolicy(
        new iam.PolicyStatement({ actions: ['events:PutEvents'], resources: consumerBuses }),
      );
      for (let start = 0; start < consumerBuses.length; start += TARGETS_PER_RULE)
        this.forwardingRules.push(
          this.forwardingRule(
            defaultBus,
            consumerBuses.slice(start, start + TARGETS_PER_RULE),
            start / TARGETS_PER_RULE,
          ),
        );
    }
  }

  private forwardingRule(bus: events.IEventBus, arns: string[], index: number): events.Rule {
    const role = this.forwardingRole!;
    return new events.Rule(this, index === 0 ? 'Forward' : `Forward${index + 1}`, {
      eventBus: bus,
      description: "This stack's bundle announcements, forwarded to the consumers' sharing buses",
      eventPattern: {
        source: [BUNDLE_PUBLISHED.source],
        detailType: [BUNDLE_PUBLISHED.detailType],
        account: [Stack.of(this).account],
      },
      targets: arns.map(
        (arn, at) =>
          new eventsTargets.EventBus(
            events.EventBus.fromEventBusArn(
              this,
              `Consumer${index * TARGETS_PER_RULE + at + 1}`,
              arn,
            ),
            { role },
          ),
      ),
    });
  }
}

import middy from '@middy/core';
import { Logger } from '@aws-lambda-powertools/logger';
import { injectLambdaContext } from '@aws-lambda-powertools/logger/middleware';
import { z } from 'zod';
import { InvalidInputError } from '../core/errors.js';
import { BUNDLE_PUBLISHED, BundlePublishedDetailSchema } from '../core/schemas/sharing.js';
import { parseOrThrow } from '../core/shared/validation.js';
import { receiveBundle } from '../core/steps/receive-bundle.js';
import {
  shareImportDepsFromEnvironment,
  type ShareImportDeps,
} from './share-import-environment.js';

/** The "Bundle Published" event as EventBridge delivers it; `account` is set by EventBridge. */
const BundlePublishedEventSchema = z.object({
  source: z.literal(BUNDLE_PUBLISHED.source),
  'detail-type': z.literal(BUNDLE_PUBLISHED.detailType),
  account: z.string().regex(/^\d{12}$/),
  detail: BundlePublishedDetailSchema,
});

/**
 * A trusted publisher announced a bundle on the stack's sharing bus: read it from the
 * publisher's bucket and receive it (verified, then imported or quarantined), checked with
 * that publisher's keys only. An event that can never be taken (malformed, an untrusted
 * account, a bundle elsewhere than its publisher's prefix, bytes not the announced ones) is
 * logged and dropped, not retried; a store or KMS out of reach throws, and the rule's retry
 * and dead-letter queue keep the event.
 */
export const makeShareImportHandler = (
  deps: () => ShareImportDeps,
  logger = new Logger({ serviceName: 'ralph-cloud' }),
) =>
  middy()
    .use(injectLambdaContext(logger, { resetKeys: true }))
    .handler(async (event: unknown) => {
      let announced: z.output<typeof BundlePublishedEventSchema>;
      try {
        announced = parseOrThrow(BundlePublishedEventSchema, event, 'bundle published event');
      } catch (error) {
        if (!(error instanceof InvalidInputError)) throw error;
        logger.error('bundle announcement refused', { issues: error.issues });
        return { outcome: 'refused' as const, why: error.message };
      }
      const { account, detail } = announced;
      const ports = deps();
      const fetched = await ports.source.fetch(account, detail);
      if (!fetched.ok) {
        logger.error('bundle announcement refused', { account, ...detail, why: fetched.why });
        return { outcome: 'refused' as const, why: fetched.why };
      }
      const report = await receiveBundle(
        { ...ports, trust: ports.trust.only(account) },
        fetched.bytes,
        fetched.origin,
      );
      logger.info(`bundle ${report.status}`, { account, report });
      return { outcome: 'received' as const, report };
    });

export const handler = makeShareImportHandler(shareImportDepsFromEnvironment);

import middy from '@middy/core';
import { Logger } from '@aws-lambda-powertools/logger';
import { injectLambdaContext } from '@aws-lambda-powertools/logger/middleware';
import { z } from 'zod';
import { RegistryScopeSchema } from '../core/schemas/learning.js';
import { parseOrThrow } from '../core/shared/validation.js';
import { publishBundle, type PublishBundleDeps } from '../core/steps/publish-bundle.js';
import { sharePublishDepsFromEnvironment } from './share-publish-environment.js';

/**
 * What the function is invoked with: by its schedule (`{}`) or by hand (`aws lambda invoke
 * --payload '{"scopes":["org","project:web"]}'`). Unknown keys are refused, so a misspelt
 * `scope` is not silently the default.
 */
export const SharePublishInputSchema = z.strictObject({
  /** The registry scopes to publish. @default ['org'] */
  scopes: z.array(RegistryScopeSchema).min(1).default(['org']),
});

/**
 * Publishes the registry of the given scopes as a signed bundle and announces it (core/steps/
 * publish-bundle.ts). Bad input throws before anything is read, naming the field; a store,
 * KMS or EventBridge out of reach throws too, and the next invocation finishes the work.
 */
export const makeSharePublishHandler = (
  deps: () => PublishBundleDeps,
  logger = new Logger({ serviceName: 'ralph-cloud' }),
) =>
  middy()
    .use(injectLambdaContext(logger, { resetKeys: true }))
    .handler(async (event: unknown) => {
      // A scheduled invocation without a payload arrives as null.
      const { scopes } = parseOrThrow(SharePublishInputSchema, event ?? {}, 'share-publish input');
      const outcome = await publishBundle(deps(), scopes);
      logger.info(`bundle ${outcome.status}`, { outcome });
      return outcome;
    });

export const handler = makeSharePublishHandler(sharePublishDepsFromEnvironment);

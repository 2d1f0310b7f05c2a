import { Logger } from '@aws-lambda-powertools/logger';
import { z } from 'zod';
import { closeBatch } from '../core/intake/close-batch.js';
import type { IntakeDeps } from '../core/intake/deps.js';
import { ProjectIdSchema } from '../core/schemas/project-route.js';
import { parseOrThrow } from '../core/shared/validation.js';
import { intakeDepsFromEnvironment } from './intake-environment.js';

/** What the batch closer's state machine passes once the batch's window has ended. */
const CloseBatchInputSchema = z.object({
  projectId: ProjectIdSchema,
  batchId: z.string().min(1),
});

/**
 * Closes a batch and starts its investigate run. Safe to retry (the state machine's Retry on
 * TransientError): a retried close starts nothing twice.
 */
export const makeCloseBatchHandler =
  (deps: () => IntakeDeps, logger = new Logger({ serviceName: 'ralph-cloud' })) =>
  async (event: unknown) => {
    const ref = parseOrThrow(CloseBatchInputSchema, event, 'close-batch input');
    const closed = await closeBatch(deps(), ref);
    logger.info(closed.runId === undefined ? 'batch closed, no run' : 'batch closed', {
      ...closed,
    });
    return closed;
  };

export const handler = makeCloseBatchHandler(intakeDepsFromEnvironment);

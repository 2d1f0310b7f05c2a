import { Logger } from '@aws-lambda-powertools/logger';
import { z } from 'zod';
import { ExecutionEndedSchema, recordExecutionEnded } from '../core/runs/execution-ended.js';
import type { LoopDeps } from '../core/steps/deps.js';
import { parseOrThrow } from '../core/shared/validation.js';
import { depsFromEnvironment } from './store-environment.js';

/** The EventBridge event Step Functions sends when an execution's status changes. */
const StatusChangeSchema = z.object({
  source: z.literal('aws.states'),
  'detail-type': z.literal('Step Functions Execution Status Change'),
  detail: ExecutionEndedSchema,
});

/**
 * A run-loop execution failed, timed out or was stopped (the stack's EventBridge rule sends
 * only those): its run, if still running, ends failed with the cause.
 */
export const makeExecutionEndedHandler =
  (deps: () => LoopDeps, logger = new Logger({ serviceName: 'ralph-cloud' })) =>
  async (event: unknown) => {
    const { detail } = parseOrThrow(StatusChangeSchema, event, 'execution status change event');
    const outcome = await recordExecutionEnded(deps(), detail);
    logger.info(outcome.recorded ? 'run ended failed' : 'nothing to record', {
      execution: detail.name,
      status: detail.status,
      ...outcome,
    });
    return outcome;
  };

export const handler = makeExecutionEndedHandler(depsFromEnvironment);

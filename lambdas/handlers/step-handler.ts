import middy from '@middy/core';
import { Logger } from '@aws-lambda-powertools/logger';
import { injectLambdaContext } from '@aws-lambda-powertools/logger/middleware';
import { parser } from '@aws-lambda-powertools/parser/middleware';
import type { Context } from 'aws-lambda';
import type { z } from 'zod';
import type { LoopDeps } from '../core/steps/deps.js';

export interface StepHandlerOptions<D = LoopDeps> {
  /** Builds the ports once, on first use (Lambda: from the environment; local: the emulators). */
  deps: () => D;
  logger?: Logger;
}

export type StepHandler<I, O> = (event: I, context: Context) => Promise<O>;

/**
 * One loop step as a Lambda handler: the state is parsed with its zod schema (a bad state
 * fails with ParseError naming the path), the logger carries run id and iteration, and
 * the step runs against the ports.
 */
export function stepHandler<
  S extends z.ZodType<{ runId: string; iteration?: number }>,
  O,
  D = LoopDeps,
>(
  schema: S,
  step: (deps: D, input: z.output<S>) => Promise<O>,
  options: StepHandlerOptions<D>,
): StepHandler<unknown, O> {
  const logger = options.logger ?? new Logger({ serviceName: 'ralph-cloud' });
  const handler = middy<z.output<S>, O>()
    .use(injectLambdaContext(logger, { resetKeys: true }))
    .use(parser({ schema }))
    .before((request) => {
      logger.appendKeys({ runId: request.event.runId, iteration: request.event.iteration });
    })
    .handler(async (event) => {
      const output = await step(options.deps(), event);
      logger.info('step done', { output });
      return output;
    });
  return handler as unknown as StepHandler<unknown, O>;
}

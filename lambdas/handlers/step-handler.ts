import middy from '@middy/core';
import { Logger } from '@aws-lambda-powertools/logger';
import { injectLambdaContext } from '@aws-lambda-powertools/logger/middleware';
import { parser } from '@aws-lambda-powertools/parser/middleware';
import type { Context } from 'aws-lambda';
import { z } from 'zod';
import { InvalidInputError } from '../core/errors.js';
import { formatZodIssues } from '../core/shared/validation.js';
import type { LoopDeps } from '../core/steps/deps.js';

export interface StepHandlerOptions<D = LoopDeps> {
  /** Builds the ports once, on first use (Lambda: from the environment; local: the emulators). */
  deps: () => D;
  logger?: Logger;
}

export type StepHandler<I, O> = (event: I, context: Context) => Promise<O>;

/**
 * How long before the Lambda's own timeout the step's signal is aborted: time enough for
 * a stopped call to unwind and the step to fail with a named error (middy's default, 5 ms,
 * is not).
 */
export const TIMEOUT_EARLY_MS = 1_000;

/** What a step gets besides its ports and its input. */
export interface StepOptions {
  /**
   * Aborted a second before the Lambda times out (middy's), so that a slow call (a model's)
   * stops and the step fails with a named error while it still can, rather than being cut off.
   */
  signal: AbortSignal;
}

/**
 * One loop step as a Lambda handler: the state is parsed with its zod schema (a bad state
 * fails with InvalidInputError naming the path), the logger carries run id and iteration, and
 * the step runs against the ports.
 */
export function stepHandler<
  S extends z.ZodType<{ runId: string; iteration?: number }>,
  O,
  D = LoopDeps,
>(
  schema: S,
  step: (deps: D, input: z.output<S>, options: StepOptions) => Promise<O>,
  options: StepHandlerOptions<D>,
): StepHandler<unknown, O> {
  const logger = options.logger ?? new Logger({ serviceName: 'ralph-cloud' });
  const handler = middy<z.output<S>, O>({ timeoutEarlyInMillis: TIMEOUT_EARLY_MS })
    .use(injectLambdaContext(logger, { resetKeys: true }))
    .use(namedParseErrors())
    .use(parser({ schema }))
    .before((request) => {
      logger.appendKeys({ runId: request.event.runId, iteration: request.event.iteration });
    })
    .handler(async (event, _context, { signal }) => {
      const output = await step(options.deps(), event, { signal });
      logger.info('step done', { output });
      return output;
    });
  return handler as unknown as StepHandler<unknown, O>;
}

/**
 * The parser's ParseError ("Failed to parse schema") as an InvalidInputError that names
 * every zod path: what the execution's failure record and the logs then say.
 */
function namedParseErrors(): middy.MiddlewareObj {
  return {
    onError: (request) => {
      const { error } = request;
      if (error?.name !== 'ParseError' || !Array.isArray(error.cause)) return;
      const issues = new z.ZodError(error.cause as z.core.$ZodIssue[]);
      request.error = new InvalidInputError('the step input', formatZodIssues(issues), {
        cause: error,
      });
    },
  };
}

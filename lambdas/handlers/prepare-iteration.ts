import { prepareIteration } from '../core/steps/prepare-iteration.js';
import { LoopStateSchema } from '../core/schemas/loop-state.js';
import { depsFromEnvironment } from './environment.js';
import { stepHandler, type StepHandlerOptions } from './step-handler.js';

/** Hands out the next iteration, picks its task and writes plan.json. */
export const makePrepareIterationHandler = (options: StepHandlerOptions) =>
  stepHandler(LoopStateSchema, prepareIteration, options);

export const handler = makePrepareIterationHandler({ deps: depsFromEnvironment });

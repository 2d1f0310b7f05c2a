import { z } from 'zod';
import { finalizeRun } from '../core/steps/end-segment.js';
import { LoopStateSchema } from '../core/schemas/loop-state.js';
import { LoopActionSchema } from '../core/schemas/loop-action.js';
import { depsFromEnvironment } from './store-environment.js';
import { stepHandler, type StepHandlerOptions } from './step-handler.js';

/** `fail` arrives from the state machine's Catch together with the failed step's error. */
export const FinalizeInputSchema = LoopStateSchema.extend({
  action: z.union([LoopActionSchema, z.literal('fail')]),
});

/** Ends the run (completed, max iterations, aborted, cancelled, failed) and writes summary.json. */
export const makeFinalizeRunHandler = (options: StepHandlerOptions) =>
  stepHandler(FinalizeInputSchema, finalizeRun, options);

export const handler = makeFinalizeRunHandler({ deps: depsFromEnvironment });

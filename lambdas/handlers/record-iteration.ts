import { recordIteration } from '../core/steps/record-iteration.js';
import { LoopStateSchema } from '../core/schemas/loop-state.js';
import { depsFromEnvironment } from './environment.js';
import { stepHandler, type StepHandlerOptions } from './step-handler.js';

/** Records the runner's result.json (or its error) on iteration, task and run. */
export const makeRecordIterationHandler = (options: StepHandlerOptions) =>
  stepHandler(LoopStateSchema, recordIteration, options);

export const handler = makeRecordIterationHandler({ deps: depsFromEnvironment });

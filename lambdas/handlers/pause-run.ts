import { pauseRun } from '../core/steps/end-segment.js';
import { LoopStateSchema } from '../core/schemas/loop-state.js';
import { depsFromEnvironment } from './store-environment.js';
import { stepHandler, type StepHandlerOptions } from './step-handler.js';

/** Stores the run as paused; the execution then ends. */
export const makePauseRunHandler = (options: StepHandlerOptions) =>
  stepHandler(LoopStateSchema, pauseRun, options);

export const handler = makePauseRunHandler({ deps: depsFromEnvironment });

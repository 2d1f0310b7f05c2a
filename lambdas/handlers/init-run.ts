import { initRun } from '../core/steps/init-run.js';
import { LoopStateSchema } from '../core/schemas/loop-state.js';
import { depsFromEnvironment } from './store-environment.js';
import { stepHandler, type StepHandlerOptions } from './step-handler.js';

/** Creates the run (segment 1) or takes over a paused one, and returns the first action. */
export const makeInitRunHandler = (options: StepHandlerOptions) =>
  stepHandler(LoopStateSchema, initRun, options);

export const handler = makeInitRunHandler({ deps: depsFromEnvironment });

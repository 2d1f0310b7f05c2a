import { advanceStep } from '../core/steps/advance.js';
import { LoopStateSchema } from '../core/schemas/loop-state.js';
import { depsFromEnvironment } from './store-environment.js';
import { stepHandler, type StepHandlerOptions } from './step-handler.js';

/**
 * Records the iteration that ran (result.json, or the runner's error), decides what comes
 * next and plans the next iteration. Takes the whole (small) state, so a caught runner
 * error arrives as `error`.
 */
export const makeAdvanceHandler = (options: StepHandlerOptions) =>
  stepHandler(LoopStateSchema, (deps, input) => advanceStep(deps, input), options);

export const handler = makeAdvanceHandler({ deps: depsFromEnvironment });

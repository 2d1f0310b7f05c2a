import { assessProgress } from '../core/steps/assess-progress.js';
import { LoopStateSchema } from '../core/schemas/loop-state.js';
import { depsFromEnvironment } from './environment.js';
import { stepHandler, type StepHandlerOptions } from './step-handler.js';

/** Decides continue / new segment / complete / pause / abort / max iterations / cancel. */
export const makeAssessProgressHandler = (options: StepHandlerOptions) =>
  stepHandler(LoopStateSchema, assessProgress, options);

export const handler = makeAssessProgressHandler({ deps: depsFromEnvironment });

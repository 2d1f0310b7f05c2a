import { collectArtefacts } from '../core/steps/collect-artefacts.js';
import { LoopStateSchema } from '../core/schemas/loop-state.js';
import { depsFromEnvironment } from './store-environment.js';
import { stepHandler, type StepHandlerOptions } from './step-handler.js';

/** Gathers the iteration's artefacts for both evaluation modes (nothing when evaluation is off). */
export const makeCollectArtefactsHandler = (options: StepHandlerOptions) =>
  stepHandler(LoopStateSchema, collectArtefacts, options);

export const handler = makeCollectArtefactsHandler({ deps: depsFromEnvironment });

import type { EvaluationDeps } from '../core/steps/evaluation-deps.js';
import { evaluateCheapStep } from '../core/steps/evaluate-cheap.js';
import { LoopStateSchema } from '../core/schemas/loop-state.js';
import { patternDepsFromEnvironment } from './pattern-environment.js';
import { stepHandler, type StepHandlerOptions } from './step-handler.js';

/** The cheap mode over the iteration's artefacts: patterns and heuristics, no network. */
export const makeEvaluateCheapHandler = (options: StepHandlerOptions<EvaluationDeps>) =>
  stepHandler(LoopStateSchema, evaluateCheapStep, options);

export const handler = makeEvaluateCheapHandler({ deps: patternDepsFromEnvironment });

import { analyzeGap } from '../core/steps/analyze-gap.js';
import type { EvaluationDeps } from '../core/steps/evaluation-deps.js';
import { LoopStateSchema } from '../core/schemas/loop-state.js';
import { evaluationDepsFromEnvironment } from './environment.js';
import { stepHandler, type StepHandlerOptions } from './step-handler.js';

/** The gap between the modes, pattern learning, recovery and convergence for one iteration. */
export const makeAnalyzeGapHandler = (options: StepHandlerOptions<EvaluationDeps>) =>
  stepHandler(LoopStateSchema, analyzeGap, options);

export const handler = makeAnalyzeGapHandler({ deps: evaluationDepsFromEnvironment });

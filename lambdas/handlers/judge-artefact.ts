import type { EvaluationDeps } from '../core/steps/evaluation-deps.js';
import { JudgeArtefactInputSchema, judgeArtefact } from '../core/steps/judge-artefact.js';
import { evaluationDepsFromEnvironment } from './environment.js';
import { stepHandler, type StepHandlerOptions } from './step-handler.js';

/** One item of the judge's Map: the LLM judge's verdict on one artefact. */
export const makeJudgeArtefactHandler = (options: StepHandlerOptions<EvaluationDeps>) =>
  stepHandler(JudgeArtefactInputSchema, judgeArtefact, options);

export const handler = makeJudgeArtefactHandler({ deps: evaluationDepsFromEnvironment });

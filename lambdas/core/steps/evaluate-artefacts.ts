import type { ModelClient } from '../../ports.js';
import { InvalidInputError } from '../errors.js';
import { measureAgreement } from '../gap/agreement.js';
import { measureCoverage, type Coverage } from '../gap/coverage.js';
import { measureCriteriaAgreement, type CriterionAgreement } from '../gap/criteria-agreement.js';
import { iterationGap, type IterationGap } from '../gap/gap.js';
import { pairResults, type PairedResults } from '../gap/pairing.js';
import type { Agreement } from '../gap/agreement.js';
import { compilePatternSet } from '../cheap/compile.js';
import { evaluateBacklog } from '../cheap/evaluate-backlog.js';
import { runExpensiveMode } from './judging.js';
import type { ExpensiveModeRun } from '../judge/verdict.js';
import type { EvaluationConfig } from '../schemas/evaluation-config.js';
import type {
  Artefact,
  CheapModeResult,
  ExpensiveModeResult,
  PatternSet,
} from '../schemas/evaluation.js';

export type EvaluationMode = 'expensive' | 'cheap' | 'dual';

export interface EvaluateInput {
  artefacts: readonly Artefact[];
  patternSet: PatternSet;
  /** Every threshold (the design document's values unless overridden). */
  config: EvaluationConfig;
  models: { judge: string };
  mode: EvaluationMode;
}

export interface DualModeComparison {
  paired: PairedResults;
  gap: IterationGap;
  agreement: Agreement;
  /** Per QUS criterion, the judge's defects against the cheap mode's (user stories). */
  criteria: CriterionAgreement[];
  coverage: Coverage;
}

export interface EvaluationOutcome {
  mode: EvaluationMode;
  cheap?: CheapModeResult[];
  expensive?: ExpensiveModeRun;
  dual?: DualModeComparison;
}

/**
 * Scores artefacts with one mode or both, on the same artefacts, and compares them: the
 * evaluation of one iteration without the loop around it (`ralph eval`).
 *
 * @example
 * const outcome = await evaluateArtefacts({ model }, { artefacts, patternSet, config, models, mode: 'dual' });
 * outcome.dual?.gap.gap; // expensive_avg − cheap_avg
 */
export async function evaluateArtefacts(
  deps: { model?: ModelClient },
  input: EvaluateInput,
): Promise<EvaluationOutcome> {
  const outcome: EvaluationOutcome = { mode: input.mode };
  if (input.mode !== 'cheap') {
    if (!deps.model)
      throw new InvalidInputError('evaluation', ['the expensive mode needs a model client']);
    outcome.expensive = await runExpensiveMode(
      { model: deps.model },
      input.artefacts,
      input.config,
      input.models,
    );
  }
  if (input.mode !== 'expensive') {
    const compiled = compilePatternSet(input.patternSet);
    outcome.cheap = evaluateBacklog(input.artefacts, compiled);
  }
  if (outcome.cheap && outcome.expensive) {
    const expensive: ExpensiveModeResult[] = outcome.expensive.final.results.map(
      (judged) => judged.result,
    );
    const paired = pairResults(outcome.cheap, expensive);
    outcome.dual = {
      paired,
      gap: iterationGap(paired.pairs),
      agreement: measureAgreement(paired.pairs),
      criteria: measureCriteriaAgreement(paired.pairs),
      coverage: measureCoverage(paired.pairs, input.patternSet.patterns, input.config),
    };
  }
  return outcome;
}

/**
 * The figures of one investigation's passes that both the pull request's body and the run's
 * report give: the pass whose analysis is kept, whether a second pass was needed, tokens and
 * cost.
 */
import type { Analysis, AnalysisPass, InvestigationResult } from '../schemas/investigation.js';

export interface PassFigures {
  /** The kept pass's analysis, when it wrote a readable one. */
  analysis: Analysis | undefined;
  /** Analysis passes (the correction not counted). */
  analysisPasses: number;
  /** More than one analysis pass: the first was not enough. */
  secondPass: boolean;
  tokens: { input: number; output: number };
  costUsd: number;
}

/** @example passFigures(result).secondPass // true when a low-confidence first pass was followed */
export function passFigures(result: InvestigationResult): PassFigures {
  const analysisPasses = result.passes.filter((pass) => pass.kind === 'analysis').length;
  return {
    analysis: result.passes.find((pass) => pass.pass === result.chosenPass)?.analysis,
    analysisPasses,
    secondPass: analysisPasses > 1,
    tokens: sumTokens(result.passes),
    costUsd: result.passes.reduce((sum, pass) => sum + (pass.costUsd ?? 0), 0),
  };
}

function sumTokens(passes: readonly AnalysisPass[]): { input: number; output: number } {
  return passes.reduce(
    (sum, pass) => ({
      input: sum.input + (pass.tokens?.input ?? 0),
      output: sum.output + (pass.tokens?.output ?? 0),
    }),
    { input: 0, output: 0 },
  );
}

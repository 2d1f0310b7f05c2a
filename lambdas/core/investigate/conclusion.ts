/**
 * An investigation's conclusion, from its passes and gates: the verdict, the pass kept and
 * the summary in words that the report and the pull request step read.
 */
import type { ErrorGroupKey } from '../schemas/error-group.js';
import type { GateResult } from '../schemas/gate-result.js';
import {
  InvestigationResultSchema,
  type AnalysisPass,
  type InvestigationResult,
} from '../schemas/investigation.js';
import { bestPass, hasFix } from './best-pass.js';

export interface InvestigationFacts {
  group: ErrorGroupKey;
  /** Every pass, the correction included, in order. */
  passes: readonly AnalysisPass[];
  gatesBefore: readonly GateResult[];
  /** The gates on the fix as it ended (none without a fix). */
  gatesAfter: readonly GateResult[];
  broken: readonly string[];
  correction: InvestigationResult['correction'];
  /** The verified fix's commit; absent when the fix was not verified (or there was none). */
  fix?: InvestigationResult['fix'];
}

/**
 * The investigation's result: `fix-verified` with a fix commit, `fix-failed-gates` when a
 * pass changed the code but no commit was made, `no-fix` otherwise. The pass kept is the
 * best analysis pass (best-pass.ts); a correction only mends a fix.
 *
 * @example
 * concludeInvestigation({ group, passes, gatesBefore, gatesAfter, broken: [], correction, fix }).verdict // 'fix-verified'
 */
export function concludeInvestigation(facts: InvestigationFacts): InvestigationResult {
  const analysed = facts.passes.filter((pass) => pass.kind === 'analysis');
  const chosen = bestPass(analysed.length > 0 ? analysed : facts.passes);
  const changed = facts.passes.some(hasFix);
  const verdict = facts.fix ? 'fix-verified' : changed ? 'fix-failed-gates' : 'no-fix';
  return InvestigationResultSchema.parse({
    source: facts.group.source,
    fingerprint: facts.group.fingerprint,
    verdict,
    summary: summary(verdict, chosen, facts),
    passes: [...facts.passes],
    chosenPass: chosen.pass,
    gatesBefore: [...facts.gatesBefore],
    gatesAfter: [...facts.gatesAfter],
    broken: [...facts.broken],
    correction: facts.correction,
    ...(facts.fix ? { fix: facts.fix } : {}),
  } satisfies InvestigationResult);
}

function summary(
  verdict: InvestigationResult['verdict'],
  chosen: AnalysisPass,
  facts: InvestigationFacts,
): string {
  const analysis = chosen.analysis;
  const cause = analysis
    ? `${analysis.rootCause.replace(/\s+/g, ' ').trim()} (confidence ${analysis.confidence})`
    : `no analysis (${chosen.problem ?? 'none written'})`;
  const passes = facts.passes.filter((pass) => pass.kind === 'analysis').length;
  const after = `after ${passes} pass${passes === 1 ? '' : 'es'}`;
  switch (verdict) {
    case 'fix-verified': {
      const kept = facts.gatesBefore.filter((gate) => gate.blocking && gate.passed).length;
      const corrected = facts.correction.succeeded ? ', once corrected' : '';
      const what = analysis?.fixSummary ?? 'a fix';
      const checked =
        kept === 0
          ? 'no gate passed before it, so nothing was verified'
          : `every gate that passed before still passes (${kept})`;
      return `${what}: ${checked}${corrected}. Root cause: ${cause}`;
    }
    case 'fix-failed-gates':
      return `the fix broke ${facts.broken.join(', ')}${facts.correction.attempted ? ' and the correction did not mend it' : ''}: no pull request. Root cause: ${cause}`;
    case 'no-fix':
      return `no fix ${after}. Root cause: ${cause}`;
  }
}

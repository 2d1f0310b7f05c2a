/**
 * Which pass of an investigation is kept (design: shared/design/error-triggered-multipass.md,
 * `_select_best_pass`): a pass that made a fix first, then the higher confidence, then the
 * later pass (it saw the earlier one's findings).
 */
import type { AnalysisPass, Confidence } from '../schemas/investigation.js';

const CONFIDENCE_RANK: Readonly<Record<Confidence, number>> = { high: 3, medium: 2, low: 1 };

/** A pass's confidence as a number; a pass without an analysis ranks below `low`. */
function confidenceRank(pass: AnalysisPass): number {
  return pass.analysis ? CONFIDENCE_RANK[pass.analysis.confidence] : 0;
}

/** A pass whose agent changed the working copy: it proposes a fix. */
export const hasFix = (pass: AnalysisPass): boolean => pass.changedFiles.length > 0;

/**
 * The pass to keep among `passes` (at least one).
 *
 * @example
 * bestPass([lowWithoutFix, highWithFix]).pass // 2
 */
export function bestPass(passes: readonly AnalysisPass[]): AnalysisPass {
  const [first, ...rest] = passes;
  if (!first) throw new Error('bestPass needs at least one pass');
  return rest.reduce((best, pass) => (better(pass, best) ? pass : best), first);
}

/** Whether `a` is to be kept over `b`. */
function better(a: AnalysisPass, b: AnalysisPass): boolean {
  if (hasFix(a) !== hasFix(b)) return hasFix(a);
  const byConfidence = confidenceRank(a) - confidenceRank(b);
  if (byConfidence !== 0) return byConfidence > 0;
  return a.pass > b.pass;
}

/**
 * Whether another analysis pass follows `pass`: it made no fix and was not confident (a
 * pass without a readable analysis counts as low), and passes are left.
 *
 * @example
 * needsAnotherPass(lowWithoutFix, 2) // true when lowWithoutFix.pass is 1
 */
export function needsAnotherPass(pass: AnalysisPass, maxPasses: number): boolean {
  const confidence = pass.analysis?.confidence ?? 'low';
  return !hasFix(pass) && confidence === 'low' && pass.pass < maxPasses;
}

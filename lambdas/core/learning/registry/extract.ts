/**
 * What a finished run teaches the cross-loop registry (cross-loop-learning.md, "Pattern
 * Extraction"): error→fix pairs, each category's successful approach, and dead ends.
 * Pure: the run-end step reads the history and hands the candidates to merge.ts.
 */
import { parseOrThrow } from '../../shared/validation.js';
import { RunHistorySchema, type PatternCandidate, type RunHistory } from './candidate.js';
import { collapseById } from './combine.js';
import { antiPatternCandidates } from './extract-anti.js';
import { errorFixCandidates } from './extract-error-fix.js';
import { ExtractOptionsSchema, type ExtractOptionsInput } from './extract-options.js';
import { successCandidates } from './extract-success.js';

/**
 * The run's candidates, one per pattern id (error, then success, then anti, each in task
 * order). InvalidInputError naming the path when the history or the options are malformed.
 *
 * @example
 * const candidates = extractPatterns(
 *   { runId, projectId, endedAt, tasks, iterations },
 *   { antiPatternFailures: 3 },
 * );
 */
export function extractPatterns(
  history: RunHistory,
  options: ExtractOptionsInput = {},
): PatternCandidate[] {
  const run = parseOrThrow(RunHistorySchema, history, 'run history');
  const settings = parseOrThrow(ExtractOptionsSchema, options, 'pattern extraction options');
  return collapseById([
    ...errorFixCandidates(run, settings),
    ...successCandidates(run, settings),
    ...antiPatternCandidates(run, settings),
  ]);
}

/**
 * The cheap mode over a set of artefacts scored together. Some QUS criteria are about the
 * backlog, not one story (uniform: the backlog's dominant template; unique: duplicates
 * across it), so the artefacts of one evaluation are one backlog.
 */
import { evaluateCheap } from './evaluate.js';
import type { CompiledPatterns } from './types.js';
import type { Artefact, CheapModeResult } from '../schemas/evaluation.js';

/**
 * Scores every artefact in cheap mode, in input order, with the backlog's criteria.
 *
 * @example
 * const results = evaluateBacklog(artefacts, compilePatternSet(set));
 * results[0].defects; // [{ criterion: 'atomic', evidence: 'and reduce congestion' }]
 */
export function evaluateBacklog(
  artefacts: readonly Artefact[],
  compiled: CompiledPatterns,
): CheapModeResult[] {
  return artefacts.map((artefact) => evaluateCheap(artefact, compiled));
}

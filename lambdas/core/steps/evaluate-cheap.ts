import { artefactKeys } from '../shared/artefact-keys.js';
import { loadRun } from './load.js';
import type { LoopState } from '../schemas/loop-state.js';
import { compilePatternSet } from '../cheap/compile.js';
import { evaluateBacklog } from '../cheap/evaluate-backlog.js';
import type { EvaluationDeps } from './evaluation-deps.js';
import { currentPatternSet } from './current-pattern-set.js';
import { readEvaluationArtefacts, requireEvaluation } from './evaluation-read.js';
import type { CheapReport } from '../schemas/evaluation-documents.js';

/**
 * Scores the iteration's artefacts with the project's current pattern set and the
 * heuristics, no network: `cheap.json`, with the version that scored. Safe to retry: a
 * stored report stands (the pattern set may have moved since).
 */
export async function evaluateCheapStep(
  deps: EvaluationDeps,
  input: LoopState,
): Promise<LoopState> {
  const { iteration, artefactIds } = requireEvaluation(input);
  const key = artefactKeys.iteration(input.runId, iteration, 'cheap.json');
  if (await deps.artefacts.exists(key)) return input;

  const run = await loadRun(deps.runs, input.runId);
  const [current, artefacts] = await Promise.all([
    currentPatternSet(deps.patternSets, run),
    readEvaluationArtefacts(deps.artefacts, input.runId, iteration, artefactIds),
  ]);
  const compiled = compilePatternSet(current.set);
  const report: CheapReport = {
    patternSetVersion: current.version,
    ...(current.fallbackFrom === undefined
      ? {}
      : { fallbackFrom: current.fallbackFrom, fallbackReason: current.fallbackReason }),
    results: evaluateBacklog(artefacts, compiled),
  };
  await deps.artefacts.put(key, JSON.stringify(report, null, 2), 'application/json');
  return input;
}

import { artefactKeys } from '../shared/artefact-keys.js';
import { InvalidTransitionError } from '../errors.js';
import type { LoopDeps } from './deps.js';
import { iterationResultOf, readResultReport } from './iteration-result.js';
import { loadIteration, loadRun } from './load.js';
import { recordedIteration } from '../loop/record-result.js';
import type { LoopState } from '../schemas/loop-state.js';
import type { IterationRecord } from '../schemas/iteration.js';
import type { ChangeArtefact } from '../schemas/evaluation.js';

/**
 * The change artefact's id. One id per run, like a suite document's: it names the slot
 * ("this iteration's change"), so that both modes' figures line up across iterations.
 */
export const CHANGE_ARTEFACT_ID = 'change';

/**
 * Gathers what both evaluation modes score for the iteration that just ran: the change
 * (story, diff, gates, what happened, from the runner's result.json) and the documents the
 * evaluation suite wrote. Returns the state without `evaluation` when the run does not
 * evaluate, or there is nothing to evaluate; the state machine then goes straight to
 * Advance. Safe to retry: the change artefact is built from stored state only, so a retry
 * writes the same bytes.
 */
export async function collectArtefacts(deps: LoopDeps, input: LoopState): Promise<LoopState> {
  if (input.iteration === undefined)
    throw new InvalidTransitionError(`collect-artefacts for run ${input.runId} needs an iteration`);
  const base = { runId: input.runId, segment: input.segment, iteration: input.iteration };
  const [run, planned, tasks, report] = await Promise.all([
    loadRun(deps.runs, input.runId),
    loadIteration(deps.runs, input.runId, input.iteration),
    deps.runs.listTasks(input.runId),
    readResultReport(deps, input.runId, input.iteration),
  ]);
  // Advance records the iteration after the evaluation: read it as it will be recorded.
  const record = recordedIteration(planned, iterationResultOf(deps, planned, report));
  const config = run.config.evaluation;
  if (!config.enabled) return base;

  const ids: string[] = [];
  const task = tasks.find((candidate) => candidate.taskId === record.taskId);
  if ((config.judgeChanges ?? config.suite === undefined) && task) {
    const diff =
      record.artefacts.diff === undefined
        ? ''
        : await deps.artefacts.getText(record.artefacts.diff);
    const change: ChangeArtefact = {
      kind: 'change',
      id: CHANGE_ARTEFACT_ID,
      story: task.story,
      diff,
      gates: record.gates,
      transcriptSummary: whatHappened(record),
      filesChanged: record.filesChanged,
    };
    await deps.artefacts.put(
      artefactKeys.evaluationArtefact(run.runId, record.iteration, CHANGE_ARTEFACT_ID),
      JSON.stringify(change, null, 2),
      'application/json',
    );
    ids.push(CHANGE_ARTEFACT_ID);
  }
  ids.push(...record.documents.filter((id) => id !== CHANGE_ARTEFACT_ID));
  if (ids.length === 0) return base;
  return { ...base, evaluation: { artefactIds: ids, judgeConcurrency: config.judge.concurrency } };
}

/** What the iteration came to, in the runner's words (the judge reads it beside the diff). */
function whatHappened(record: IterationRecord): string {
  const lines = [
    `Iteration ${record.iteration}, attempt ${record.attempt} at ${record.taskId}: ${record.outcome ?? 'not recorded'}${record.cause ? ` (${record.cause})` : ''}.`,
    record.commit
      ? `The change was committed as ${record.commit}.`
      : 'The change was not committed (reset; kept as evidence when there was one).',
    `${record.filesChanged.length} files changed.`,
    record.agentClaimedComplete ? 'The agent claimed the story complete.' : '',
  ];
  return lines.filter((line) => line !== '').join(' ');
}

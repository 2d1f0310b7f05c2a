/**
 * What an investigation reads before its agent starts: the task's error group, stored
 * when the run was started, and what the run's earlier investigations found (their
 * investigation.json), for the run context.
 */
import type { EarlierInvestigation } from '../../lambdas/core/investigate/run-context.js';
import { ErrorGroupSchema, type ErrorGroup } from '../../lambdas/core/schemas/error-group.js';
import { InvestigationResultSchema } from '../../lambdas/core/schemas/investigation.js';
import { artefactKeys } from '../../lambdas/core/shared/artefact-keys.js';
import { parseJsonText, parseOrThrow } from '../../lambdas/core/shared/validation.js';
import type { Iteration } from '../runner/iteration.js';
import { settle } from '../runner/settled.js';

/** The task's error group; throws (a runner error) when it is missing or unreadable. */
export async function readErrorGroup(it: Iteration, taskId: string): Promise<ErrorGroup> {
  const key = artefactKeys.errorGroup(it.run.runId, taskId);
  return parseOrThrow(
    ErrorGroupSchema,
    parseJsonText(await it.deps.artefacts.getText(key), key),
    key,
  );
}

/**
 * The investigations earlier iterations of this run concluded on other errors, oldest
 * first, the latest per error. Best effort: what cannot be read is logged and left out
 * (the run context is help, not a requirement).
 */
export async function earlierInvestigations(
  it: Iteration,
  taskId: string,
): Promise<EarlierInvestigation[]> {
  const { runId } = it.run;
  const errors = it.run.investigation?.errors ?? [];
  const numbers = Array.from({ length: it.record.iteration - 1 }, (_, index) => index + 1);
  const read = await Promise.all(
    numbers
      .map(async (iteration) => {
        const key = artefactKeys.iteration(runId, iteration, 'investigation.json');
        if (!(await it.deps.artefacts.exists(key))) return undefined;
        const result = parseOrThrow(
          InvestigationResultSchema,
          parseJsonText(await it.deps.artefacts.getText(key), key),
          key,
        );
        const error = errors.find(
          (candidate) =>
            candidate.source === result.source && candidate.fingerprint === result.fingerprint,
        );
        if (!error || error.taskId === taskId) return undefined;
        const group = await settle(readErrorGroup(it, error.taskId));
        const title = group.status === 'fulfilled' ? group.value.latest.title : error.taskId;
        return { taskId: error.taskId, title, result };
      })
      .map((reading) => settle(reading)),
  );
  const found: EarlierInvestigation[] = [];
  for (const entry of read) {
    if (entry.status === 'rejected') {
      it.log('run-context-read-failed', { error: (entry.reason as Error).message });
      continue;
    }
    if (!entry.value) continue;
    const same = found.findIndex((known) => known.taskId === entry.value?.taskId);
    if (same >= 0) found.splice(same, 1);
    found.push(entry.value);
  }
  return found;
}

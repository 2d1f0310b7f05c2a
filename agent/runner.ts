/**
 * The iteration runner: what runs inside the agent container (and, locally, in-process)
 * for ONE iteration, as a pipeline of stages that take and return values:
 *
 *   claim (agent/runner/claim.ts) → open the working copy (open.ts) → prepare: branch,
 *   runner files, prompt (prepare.ts) → the agent, the gates, then the counted commit or
 *   the change kept as evidence (conclude.ts) → the change's artefacts, the evaluation
 *   suite and result.json (finish.ts, result.ts).
 *
 * An investigate run's iteration (`run.investigation`) takes the same claim and working
 * copy, then its own stages (agent/investigate/investigate.ts).
 *
 * It reports through `result.json`; record-iteration, not the runner, moves the iteration
 * to its final state.
 */
import type { IterationResult } from '../lambdas/core/schemas/iteration-result.js';
import { investigate } from './investigate/investigate.js';
import { watchRunCancel } from './runner/cancel-watch.js';
import { claimIteration } from './runner/claim.js';
import { concludeChange } from './runner/conclude.js';
import { finishIteration } from './runner/finish.js';
import {
  claimedIteration,
  type Iteration,
  type RunIterationInput,
  type RunnerDeps,
} from './runner/iteration.js';
import { openWorkingCopy, type OpenedWorkspace } from './runner/open.js';
import { prepareWorkingCopy } from './runner/prepare.js';
import { describeError, report, reportRunnerError } from './runner/result.js';
import { settle, unwrap } from './runner/settled.js';

export type { RunIterationInput, RunnerDeps, RunnerEvent } from './runner/iteration.js';

/**
 * Runs one iteration and returns what it wrote to `result.json`. Throws
 * IterationClaimedError when the iteration is not `planned` (a duplicate delivery must not
 * run the agent twice); after the claim, an unexpected error is still reported as a
 * `runner_error` result before it is rethrown (or as `passed`, and returned, when it came
 * after the counted commit).
 *
 * @example
 * const result = await runIteration({ runs, artefacts, clock: systemClock, spawner }, { runId, iteration: 3 });
 * console.log(result.outcome, result.commit ?? result.evidenceRef);
 */
export async function runIteration(
  deps: RunnerDeps,
  input: RunIterationInput,
): Promise<IterationResult> {
  const claimed = await claimIteration(deps, input);
  const it = claimedIteration(deps, claimed.run, claimed.record);
  it.log('claimed', { taskId: claimed.record.taskId });
  const opened = await openWorkingCopy(it, claimed);
  if ('error' in opened) return reportRunnerError(it, opened.error, { facts: opened.facts });
  // A working copy that cannot be used says why in the outcome.
  if ('problem' in opened) return report(it, opened.problem, opened.facts);
  // An investigate run's task is an error group: a second task kind on the same working copy.
  const { investigation } = it.run;
  const ran = await settle(
    investigation ? investigate(it, opened, investigation) : inWorkspace(it, opened),
  );
  const disposed = await settle(opened.workspace.dispose());
  const result = unwrap(ran);
  if (disposed.status === 'rejected') {
    // result.json is written and stands; the error still fails a run that did not pass.
    it.log('runner-error', { error: describeError(disposed.reason) });
    if (result.outcome !== 'passed') throw disposed.reason;
  }
  return result;
}

/** From the prepared working copy to result.json; the run's cancel is watched meanwhile. */
async function inWorkspace(it: Iteration, opened: OpenedWorkspace): Promise<IterationResult> {
  const prepared = await settle(prepareWorkingCopy(it, opened));
  if (prepared.status === 'rejected')
    return reportRunnerError(it, prepared.reason, { facts: opened.facts });
  const session = prepared.value;
  const cancel = watchRunCancel(it);
  try {
    const concluded = await concludeChange(it, session, cancel);
    return await finishIteration(it, session, cancel, concluded, opened.facts);
  } finally {
    await cancel.stop();
  }
}

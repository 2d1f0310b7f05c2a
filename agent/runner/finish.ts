/**
 * The last stages, once the working copy holds no change of the agent's: the change's
 * artefacts, the evaluation suite, and result.json. Each way the change was settled ends
 * here in its own function.
 */
import type { IterationResult } from '../../lambdas/core/schemas/iteration-result.js';
import type { Verdict } from './agent-outcome.js';
import type { CancelWatch } from './cancel-watch.js';
import { diff } from '../git/diff.js';
import { writeChangeArtefacts } from './change-artefacts.js';
import type { Concluded } from './conclude.js';
import { pushCounted } from './counted-commit.js';
import type { Facts } from './facts.js';
import type { Iteration } from './iteration.js';
import type { Session } from './prepare.js';
import { errorContext, report, reportRunnerError } from './result.js';
import { runSuite } from './run-suite.js';
import { settle } from './settled.js';

/**
 * Reports the concluded iteration. Rejects only with an unexpected error, after
 * result.json says `runner_error`.
 */
export async function finishIteration(
  it: Iteration,
  session: Session,
  cancel: CancelWatch,
  concluded: Concluded,
  before: Facts,
): Promise<IterationResult> {
  const prompt = await session.promptWritten;
  const facts: Facts = {
    ...before,
    ...(prompt.status === 'fulfilled' ? { prompt: prompt.value } : {}),
    ...(session.learning ? { learning: session.learning } : {}),
    ...concluded.facts,
  };
  switch (concluded.kind) {
    case 'unchanged': {
      const change = await writeChangeArtefacts(it, session, '', undefined);
      return withSuite(it, session, cancel, concluded.verdict, { ...facts, change });
    }
    case 'rejected':
      return finishRejected(it, session, cancel, concluded, facts);
    case 'committed':
      return finishCommitted(it, session, cancel, concluded, facts);
    case 'failed': {
      const change = await concluded.artefacts;
      return reportRunnerError(it, concluded.error, {
        facts: { ...facts, ...(change ? { change } : {}) },
        ...(concluded.evidenceRef === undefined ? {} : { evidenceRef: concluded.evidenceRef }),
      });
    }
  }
}

/**
 * The change did not count: its patch is the evidence's, and the evaluation suite runs on
 * the restored code, so that every iteration scores the same documents and the evaluation's
 * figures stay comparable across a failed attempt.
 */
async function finishRejected(
  it: Iteration,
  session: Session,
  cancel: CancelWatch,
  rejected: Extract<Concluded, { kind: 'rejected' }>,
  known: Facts,
): Promise<IterationResult> {
  const { evidence, moved, filesChanged } = rejected.kept;
  const facts: Facts = { ...known, ...(filesChanged ? { filesChanged } : {}) };
  const patch = evidence
    ? await settle(diff(session.workspace, session.base, evidence.sha, { binary: true }))
    : ({ status: 'fulfilled', value: '' } as const);
  if (patch.status === 'rejected')
    return reportRunnerError(it, patch.reason, {
      facts,
      ...(evidence ? { evidenceRef: evidence.ref } : {}),
    });
  const change = await writeChangeArtefacts(it, session, patch.value, rejected.gateRuns);
  const { verdict } = rejected;
  const keptMoved =
    moved.length > 0 ? `the moved branches' heads are kept as ${moved.join(', ')}` : '';
  return withSuite(
    it,
    session,
    cancel,
    {
      ...verdict,
      ...(keptMoved
        ? {
            failureDetail: [verdict.failureDetail ?? verdict.cause ?? '', keptMoved]
              .filter((part) => part !== '')
              .join('\n'),
          }
        : {}),
      ...(evidence ? { evidenceRef: evidence.ref } : {}),
    },
    { ...facts, change },
  );
}

/**
 * The counted commit, pushed for a clone while its artefacts are written. Once it is on
 * the branch, result.json says `passed` whatever else fails (reportRunnerError keeps to
 * that); a refused push does not count.
 */
async function finishCommitted(
  it: Iteration,
  session: Session,
  cancel: CancelWatch,
  committed: Extract<Concluded, { kind: 'committed' }>,
  known: Facts,
): Promise<IterationResult> {
  const [pushed, change] = await Promise.all([
    pushCounted(it, session, committed.commit),
    committed.artefacts,
  ]);
  const facts: Facts = { ...known, change };
  if (pushed.refused)
    return reportRunnerError(it, pushed.error, {
      facts,
      ...(pushed.evidenceRef === undefined ? {} : { evidenceRef: pushed.evidenceRef }),
    });
  it.log('committed', { commit: committed.commit });
  return withSuite(it, session, cancel, { outcome: 'passed', commit: committed.commit }, facts);
}

/**
 * Runs the evaluation suite, then writes result.json. An unexpected error is a runner
 * error, reported with what the verdict established (a counted commit stays passed).
 */
async function withSuite(
  it: Iteration,
  session: Session,
  cancel: CancelWatch,
  verdict: Verdict,
  facts: Facts,
): Promise<IterationResult> {
  const suite = await settle(runSuite(it, session, cancel.signal));
  if (suite.status === 'rejected')
    return reportRunnerError(it, suite.reason, errorContext(verdict, facts));
  return report(it, verdict, { ...facts, ...(suite.value ? { suite: suite.value } : {}) });
}

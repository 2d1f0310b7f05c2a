/**
 * result.json, the last of the iteration's artefacts: built from the verdict and the facts
 * the stages returned. After an unexpected error the iteration still reports: `runner_error`,
 * unless the counted commit is on the branch, when it reports `passed`.
 */
import {
  IterationResultSchema,
  type IterationResult,
} from '../../lambdas/core/schemas/iteration-result.js';
import type { Verdict } from './agent-outcome.js';
import { artefactKey, asBytes } from './artefacts.js';
import type { Facts } from './facts.js';
import type { Iteration } from './iteration.js';
import { settle } from './settled.js';

/** Builds and writes result.json; a failed write rejects. */
export async function writeResult(
  it: Iteration,
  verdict: Verdict,
  facts: Facts,
): Promise<IterationResult> {
  const resultKey = artefactKey(it, 'result.json');
  const agentMs = facts.agent?.ms ?? 0;
  const gatesMs = (facts.gates?.ms ?? 0) + (facts.suite?.ms ?? 0);
  const total = performance.now() - it.started;
  const findings = facts.findings ?? [];
  const result = IterationResultSchema.parse({
    runId: it.run.runId,
    iteration: it.record.iteration,
    taskId: it.record.taskId,
    subtaskId: facts.plan?.subtaskId,
    outcome: verdict.outcome,
    // Findings travel only with a pass: a failed iteration's gates say what to fix.
    review: verdict.outcome === 'passed' && findings.length > 0 ? { findings } : undefined,
    cause: verdict.cause,
    failureDetail:
      verdict.failureDetail ?? (verdict.outcome === 'passed' ? '' : (verdict.cause ?? '')),
    gates: facts.gates?.results ?? [],
    commit: verdict.commit,
    evidenceRef: verdict.evidenceRef,
    agentExitCode: facts.agent?.exitCode,
    agentClaimedComplete: facts.agent?.claimedComplete ?? false,
    agentReport: facts.agent?.report,
    agentUsage: facts.agent?.usage,
    learning: facts.learning,
    filesChanged: facts.filesChanged ?? [],
    documents: facts.suite?.documents ?? [],
    investigation: facts.investigation?.result,
    observation: facts.change?.observation,
    durations: {
      agentMs: Math.round(agentMs),
      gatesMs: Math.round(gatesMs),
      runnerMs: Math.max(0, Math.round(total - agentMs - gatesMs)),
    },
    startedAt: it.startedAt,
    endedAt: it.deps.clock.now().toISOString(),
    artefacts: {
      ...facts.plan?.written,
      ...facts.prompt,
      ...facts.progressArchive,
      ...facts.change?.written,
      ...facts.suite?.written,
      ...facts.investigation?.written,
      result: resultKey,
    },
  });
  await it.deps.artefacts.put(resultKey, asBytes(`${JSON.stringify(result, null, 2)}\n`));
  it.log('result', { outcome: result.outcome, cause: result.cause, commit: result.commit });
  return result;
}

/**
 * Writes the verdict's result.json; should that fail, reports the failure as a runner
 * error (which writes result.json once more).
 */
export async function report(
  it: Iteration,
  verdict: Verdict,
  facts: Facts,
): Promise<IterationResult> {
  const written = await settle(writeResult(it, verdict, facts));
  if (written.status === 'fulfilled') return written.value;
  return reportRunnerError(it, written.reason, errorContext(verdict, facts));
}

/** What a runner error reports once the verdict is known: a counted commit stays passed. */
export function errorContext(verdict: Verdict, facts: Facts): RunnerErrorContext {
  return {
    facts,
    ...(verdict.outcome === 'passed' && verdict.commit !== undefined
      ? { committed: verdict.commit }
      : {}),
    ...(verdict.evidenceRef === undefined ? {} : { evidenceRef: verdict.evidenceRef }),
  };
}

export interface RunnerErrorContext {
  /** What the stages had established when the error came. */
  facts: Facts;
  /** The counted commit, when it is on the branch (pushed, for a clone). */
  committed?: string;
  /** Where the change is kept, when it was. */
  evidenceRef?: string;
}

/**
 * After an unexpected error: result.json says `runner_error` and the error is rethrown —
 * unless the counted commit is already on the branch: then the iteration passed,
 * result.json says so, and that result is returned. A failure to write result.json is
 * logged, and the error rethrown.
 */
export async function reportRunnerError(
  it: Iteration,
  error: unknown,
  context: RunnerErrorContext,
): Promise<IterationResult> {
  const message = describeError(error);
  it.log('runner-error', { error: message });
  const verdict: Verdict =
    context.committed !== undefined
      ? { outcome: 'passed', commit: context.committed }
      : {
          outcome: 'runner_error',
          cause: message.split('\n')[0] ?? message,
          failureDetail: message,
          ...(context.evidenceRef === undefined ? {} : { evidenceRef: context.evidenceRef }),
        };
  let reported: IterationResult;
  try {
    reported = await writeResult(it, verdict, context.facts);
  } catch (reportError) {
    it.log('runner-error-report-failed', { error: (reportError as Error).message });
    throw error;
  }
  if (reported.outcome === 'passed') return reported;
  throw error;
}

/** `Name: message` of an error, as the runner-error log and result.json give it. */
export function describeError(error: unknown): string {
  return error instanceof Error ? `${error.name}: ${error.message}` : String(error);
}

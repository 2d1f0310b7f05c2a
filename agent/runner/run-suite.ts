/**
 * The evaluation suite, after the counted commit (or, when the iteration did not count, on
 * the restored code): its documents become the iteration's evaluation artefacts, and
 * suite.json says how the suite went.
 */
import { SuiteReportSchema, type SuiteReport } from '../../lambdas/core/schemas/documents.js';
import { artefactKeys } from '../../lambdas/core/shared/artefact-keys.js';
import type { EvaluationSuite } from '../../lambdas/core/schemas/evaluation-config.js';
import { runEvaluationSuite, type SuiteRun } from '../checks/evaluation-suite.js';
import { asBytes, putArtefactBestEffort } from './artefacts.js';
import type { SuiteFacts } from './facts.js';
import { killGrace, type Iteration } from './iteration.js';
import type { Session } from './prepare.js';

/**
 * Evidence, never a gate: nothing here changes the outcome, and a document whose upload
 * failed is logged and left out of `documents`. The suite runs the project's code the way
 * the gates do, so its time is counted with theirs in `gatesMs` (not runner overhead, not
 * the agent's); suite.json keeps its own duration. It runs before result.json is written
 * (which lists the documents), so the gap between the commit and result.json grows by the
 * suite's run: bounded by its timeout, and cut short by a cancel or a SIGTERM (the
 * iteration still reports `passed`). Undefined when the run has no suite. Never rejects.
 */
export async function runSuite(
  it: Iteration,
  session: Session,
  signal: AbortSignal,
): Promise<SuiteFacts | undefined> {
  const { enabled, suite } = it.run.config.evaluation;
  if (!enabled || !suite) return undefined;
  const started = performance.now();
  const run = await runEvaluationSuite({
    dir: session.workspace.dir,
    spawner: it.deps.spawner,
    suite,
    signal,
    ...killGrace(it.deps),
  }).catch((error: unknown): SuiteRun => ({
    status: 'failed',
    documents: [],
    problems: [`the suite could not be run: ${(error as Error).message}`],
    exitCode: null,
    durationMs: performance.now() - started,
    outputTail: '',
  }));
  const ms = performance.now() - started;
  const uploads = await Promise.all(run.documents.map((document) => upload(it, document)));
  const documents = uploads.filter((upload) => !upload.problem).map(({ id }) => id);
  const problems = [
    ...run.problems,
    ...uploads.flatMap(({ problem }) => (problem ? [problem] : [])),
  ];
  const written = await putArtefactBestEffort(
    it,
    'suite.json',
    `${JSON.stringify(suiteReport(suite, run, documents, problems), null, 2)}\n`,
  );
  it.log('evaluation-suite', {
    status: run.status,
    documents: documents.length,
    problems: problems.length,
  });
  return { documents, written, ms };
}

async function upload(
  it: Iteration,
  document: SuiteRun['documents'][number],
): Promise<{ id: string; problem?: string }> {
  const key = artefactKeys.evaluationArtefact(it.run.runId, it.record.iteration, document.id);
  try {
    await it.deps.artefacts.put(key, asBytes(JSON.stringify(document)));
    return { id: document.id };
  } catch (error) {
    const message = (error as Error).message;
    it.log('artefact-write-failed', { artefact: key, error: message });
    return { id: document.id, problem: `${document.id}: upload failed: ${message}` };
  }
}

/** suite.json: how the suite went. */
function suiteReport(
  suite: EvaluationSuite,
  run: SuiteRun,
  documents: string[],
  problems: string[],
): SuiteReport {
  return SuiteReportSchema.parse({
    command: suite.command,
    outputDir: suite.outputDir,
    documentType: suite.documentType,
    status: run.status,
    exitCode: run.exitCode,
    durationMs: Math.round(run.durationMs),
    documents,
    problems,
    outputTail: run.outputTail,
  } satisfies SuiteReport);
}

/**
 * Writes an investigate run's report once, when the run ends (finalize): each iteration's
 * investigation (result.json) and pull-request outcome (`pull-request.json`), read back and
 * summed up (investigate/investigation-report.ts). Write-once, like the summary: a retried
 * finalize finds it and writes nothing.
 */
import {
  investigationReport,
  type ReportedIteration,
} from '../investigate/investigation-report.js';
import {
  FixPullRequestOutcomeSchema,
  InvestigationReportSchema,
} from '../schemas/investigation-report.js';
import { InvalidInputError } from '../errors.js';
import type { IterationRecord } from '../schemas/iteration.js';
import { IterationResultSchema } from '../schemas/iteration-result.js';
import type { RunRecord } from '../schemas/run.js';
import { artefactKeys } from '../shared/artefact-keys.js';
import { parseJsonText, parseOrThrow } from '../shared/validation.js';
import type { LoopDeps } from './deps.js';
import { readOptionalText } from '../shared/optional-document.js';

export async function writeInvestigationReport(
  deps: LoopDeps,
  run: RunRecord,
  runIterations: () => Promise<IterationRecord[]>,
): Promise<void> {
  if (run.investigation === undefined) return;
  const key = artefactKeys.runArtefact(run.runId, 'investigation-report.json');
  if (await deps.artefacts.exists(key)) return;
  const records = await runIterations();
  const iterations = await Promise.all(
    records.map((record) => readIteration(deps, run.runId, record.iteration, record.taskId)),
  );
  const report = parseOrThrow(
    InvestigationReportSchema,
    investigationReport(run.runId, run.investigation, iterations),
    key,
  );
  await deps.artefacts.put(key, JSON.stringify(report, null, 2), 'application/json');
}

async function readIteration(
  deps: LoopDeps,
  runId: string,
  iteration: number,
  taskId: string,
): Promise<ReportedIteration> {
  const resultKey = artefactKeys.iteration(runId, iteration, 'result.json');
  const outcomeKey = artefactKeys.iteration(runId, iteration, 'pull-request.json');
  const [resultText, outcomeText] = await Promise.all([
    readOptionalText(deps.artefacts, resultKey),
    readOptionalText(deps.artefacts, outcomeKey),
  ]);
  const investigation =
    resultText === undefined ? undefined : investigationOf(resultText, resultKey);
  return {
    iteration,
    taskId,
    ...(investigation === undefined ? {} : { investigation }),
    ...(outcomeText === undefined
      ? {}
      : {
          outcome: parseOrThrow(
            FixPullRequestOutcomeSchema,
            parseJsonText(outcomeText, outcomeKey),
            outcomeKey,
          ),
        }),
  };
}

/**
 * The investigation in a result.json; one that does not parse counts as none (advance has
 * recorded that iteration as it could), so that a bad report never stops the run ending.
 */
function investigationOf(text: string, key: string) {
  try {
    return parseOrThrow(IterationResultSchema, parseJsonText(text, key), key).investigation;
  } catch (error) {
    if (error instanceof InvalidInputError) return undefined;
    throw error;
  }
}

/**
 * What an iteration came to, as the steps after the runner read it: the runner's
 * `result.json`, or, when the runner never wrote one (it crashed, its container was
 * stopped, its segment died), a result that says so. Advance records it; collect-artefacts
 * builds the change artefact from it.
 */
import { readOptionalText } from '../shared/optional-document.js';
import type { IterationRecord } from '../schemas/iteration.js';
import { IterationResultSchema, type IterationResult } from '../schemas/iteration-result.js';
import type { IterationOutcome } from '../schemas/outcome.js';
import { artefactKeys } from '../shared/artefact-keys.js';
import { parseJsonText, parseOrThrow } from '../shared/validation.js';
import type { LoopDeps } from './deps.js';
import { describeStepError, type StepError } from './step-error.js';

export interface MissingResult {
  /** What an iteration without result.json is recorded as. @default 'runner_error' */
  outcome?: IterationOutcome;
  /** The error that stopped the run-agent step, as the state machine's Catch gives it. */
  error?: StepError;
}

/**
 * The iteration's result: result.json, validated (a bad one is InvalidInputError naming
 * the key and the zod path), with its own key among the artefacts; else the result of an
 * iteration whose runner never reported.
 *
 * @example
 * const result = await readIterationResult(deps, record, { error: input.error });
 * result.outcome; // 'passed', or 'runner_error' when there was no result.json
 */
export async function readIterationResult(
  deps: Pick<LoopDeps, 'artefacts' | 'clock'>,
  record: IterationRecord,
  missing: MissingResult = {},
): Promise<IterationResult> {
  const report = await readResultReport(deps, record.runId, record.iteration);
  return iterationResultOf(deps, record, report, missing);
}

/** result.json as stored, when the runner wrote one: read without waiting for the record. */
export async function readResultReport(
  deps: Pick<LoopDeps, 'artefacts'>,
  runId: string,
  iteration: number,
): Promise<{ key: string; text: string | undefined }> {
  const key = artefactKeys.iteration(runId, iteration, 'result.json');
  return { key, text: await readOptionalText(deps.artefacts, key) };
}

/** The result from result.json as read (see {@link readResultReport}), or without one. */
export function iterationResultOf(
  deps: Pick<LoopDeps, 'clock'>,
  record: IterationRecord,
  report: { key: string; text: string | undefined },
  missing: MissingResult = {},
): IterationResult {
  if (report.text === undefined) return resultWithoutReport(deps, record, missing);
  const result = parseOrThrow(
    IterationResultSchema,
    parseJsonText(report.text, report.key),
    report.key,
  );
  return { ...result, artefacts: { ...result.artefacts, result: report.key } };
}

/** The result of an iteration that has no result.json. */
function resultWithoutReport(
  deps: Pick<LoopDeps, 'clock'>,
  record: IterationRecord,
  { outcome = 'runner_error', error }: MissingResult,
): IterationResult {
  const cause = error
    ? `the run-agent step failed: ${describeStepError(error)}`
    : 'the runner finished without writing result.json';
  return {
    runId: record.runId,
    iteration: record.iteration,
    taskId: record.taskId,
    outcome,
    cause,
    failureDetail: cause,
    gates: [],
    agentClaimedComplete: false,
    filesChanged: [],
    documents: [],
    durations: { agentMs: 0, gatesMs: 0, runnerMs: 0 },
    startedAt: record.startedAt ?? record.plannedAt,
    endedAt: deps.clock.now().toISOString(),
    artefacts: {},
  };
}

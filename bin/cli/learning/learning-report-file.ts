/** A run's `learning-report.json` as the CLI reads it, from the local stack or a Run API. */
import { NotFoundError } from '../../../lambdas/core/errors.js';
import {
  RunLearningReportSchema,
  type RunLearningReport,
} from '../../../lambdas/core/schemas/learning.js';
import { parseJsonText, parseOrThrow } from '../../../lambdas/core/shared/validation.js';
import type { RunBackend } from '../backend/run-backend.js';

/** Undefined until the run has ended and learned (or when it does not learn). */
export async function readLearningReport(
  backend: RunBackend,
  runId: string,
): Promise<RunLearningReport | undefined> {
  let text: string;
  try {
    text = await backend.readRunArtefact(runId, 'learning-report.json');
  } catch (error) {
    if (error instanceof NotFoundError) return undefined;
    throw error;
  }
  return parseOrThrow(
    RunLearningReportSchema,
    parseJsonText(text, 'learning-report.json'),
    'learning-report.json',
  );
}

/** A run's `learning-report.json` as the CLI reads it, from the local stack or a Run API. */
import {
  RunLearningReportSchema,
  type RunLearningReport,
} from '../../../lambdas/core/schemas/learning.js';
import { readOptionalDocument } from '../../../lambdas/core/shared/optional-document.js';
import type { RunBackend } from '../backend/run-backend.js';

/** Undefined until the run has ended and learned (or when it does not learn). */
export function readLearningReport(
  backend: RunBackend,
  runId: string,
): Promise<RunLearningReport | undefined> {
  return readOptionalDocument(
    { getText: () => backend.readRunArtefact(runId, 'learning-report.json') },
    'learning-report.json',
    RunLearningReportSchema,
  );
}

/**
 * An investigate run's report (`investigation-report.json`) as the CLI reads it, from the
 * local stack or a Run API: the document, or in words why there is none to show.
 */
import { NotFoundError } from '../../lambdas/core/errors.js';
import {
  InvestigationReportSchema,
  type InvestigationReport,
} from '../../lambdas/core/schemas/investigation-report.js';
import { parseJsonText, parseOrThrow } from '../../lambdas/core/shared/validation.js';
import type { RunBackend } from './backend/run-backend.js';
import { CliError } from './errors.js';
import { EXIT } from './exit-codes.js';

/** The report of an investigate run, once it ended; before, or where it cannot be read, why not. */
export async function readInvestigationReport(
  backend: RunBackend,
  runId: string,
): Promise<InvestigationReport | string> {
  let text: string;
  try {
    text = await backend.readRunArtefact(runId, 'investigation-report.json');
  } catch (error) {
    if (error instanceof NotFoundError) return 'no report yet (it is written when the run ends)';
    if (error instanceof CliError && error.exitCode === EXIT.notPossible) return error.message;
    throw error;
  }
  return parseOrThrow(
    InvestigationReportSchema,
    parseJsonText(text, 'investigation-report.json'),
    'investigation-report.json',
  );
}

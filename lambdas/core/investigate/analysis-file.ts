/**
 * The analysis the agent is asked to write, read back. A file that is missing, not JSON or
 * not an analysis makes the pass a pass with a `problem` (in words, with the zod paths), so
 * the investigation goes on and says what was wrong, rather than crashing.
 */
import { AnalysisSchema, type Analysis } from '../schemas/investigation.js';
import { formatZodIssues } from '../shared/validation.js';

/** Where the agent writes its analysis, relative to the repository root; never committed. */
export const ANALYSIS_PATH = '.ralph/analysis.json';

export type AnalysisRead = { analysis: Analysis } | { problem: string };

/**
 * The analysis in `text` (the file's content; undefined when there is no file).
 *
 * @example
 * readAnalysis('{"confidence":"sure"}')
 * // { problem: '.ralph/analysis.json: rootCause: expected string, received undefined; confidence: …' }
 */
export function readAnalysis(text: string | undefined): AnalysisRead {
  if (text === undefined) return { problem: `the agent wrote no ${ANALYSIS_PATH}` };
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (error) {
    return { problem: `${ANALYSIS_PATH} is not valid JSON (${(error as Error).message})` };
  }
  const parsed = AnalysisSchema.safeParse(value);
  if (parsed.success) return { analysis: parsed.data };
  return {
    problem: `${ANALYSIS_PATH} is not an analysis: ${formatZodIssues(parsed.error, AnalysisSchema).join('; ')}`,
  };
}

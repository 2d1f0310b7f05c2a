/**
 * The S3 documents of a run that the loop's records do not already describe: each has one
 * schema here, which its writer parses before it writes and its readers parse when they
 * read (plan.json, result.json, request.json and the evaluation documents have theirs
 * beside their records).
 */
import { z } from 'zod';
import { RunConfigSchema } from './config.js';
import { GateResultSchema } from './gate-result.js';
import { IterationOutcomeSchema } from './outcome.js';
import { PrdSchema } from './prd.js';
import { RepoRefSchema, RunRecordSchema } from './run.js';
import { TaskRecordSchema } from './task.js';

/** `runs/{runId}/manifest.json`: the run as it was created, with what it was created from. */
export const RunManifestSchema = z.object({
  run: RunRecordSchema,
  prd: PrdSchema,
  config: RunConfigSchema,
  repo: RepoRefSchema,
});
export type RunManifest = z.infer<typeof RunManifestSchema>;

/** `runs/{runId}/summary.json`: the run as it ended, its tasks and each iteration in a line. */
export const RunSummarySchema = z.object({
  run: RunRecordSchema,
  tasks: z.array(TaskRecordSchema),
  iterations: z.array(
    z.object({
      iteration: z.number().int().positive(),
      taskId: z.string(),
      outcome: IterationOutcomeSchema.optional(),
      commit: z.string().optional(),
      cause: z.string().optional(),
    }),
  ),
});
export type RunSummary = z.infer<typeof RunSummarySchema>;

/** `gates.json`: every gate as it ran, with its whole output (the records keep a tail). */
export const GatesDocumentSchema = z.object({
  gates: z.array(
    GateResultSchema.omit({ outputTail: true }).extend({ command: z.string(), output: z.string() }),
  ),
});
export type GatesDocument = z.infer<typeof GatesDocumentSchema>;

/** `suite.json`: how the evaluation suite went, and which of its documents were kept. */
export const SuiteReportSchema = z.object({
  command: z.string(),
  outputDir: z.string(),
  documentType: z.string(),
  status: z.enum(['ok', 'failed', 'timed_out']),
  exitCode: z.number().int().nullable(),
  durationMs: z.number().int().nonnegative(),
  /** Ids of the documents uploaded (artefacts of kind `document`). */
  documents: z.array(z.string()),
  /** One line per refused file or upload, or suite fault. */
  problems: z.array(z.string()),
  outputTail: z.string(),
});
export type SuiteReport = z.infer<typeof SuiteReportSchema>;

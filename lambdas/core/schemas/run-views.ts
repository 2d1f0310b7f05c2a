/**
 * The front door's models: what a caller sends to start a run and what the run commands
 * (start, list, show, cancel, resume) answer. The API parses and answers with these, the
 * CLI reads them back, and `/openapi.json` is generated from them.
 */
import { z } from 'zod';
import { RunConfigSchema } from './config.js';
import { IterationEvaluationSummarySchema } from './evaluation-records.js';
import { IterationRecordSchema } from './iteration.js';
import { PrdSchema } from './prd.js';
import { RunRecordSchema, RunStatusSchema } from './run.js';
import { TaskRecordSchema } from './task.js';

/** A run id or project id as it may appear in a path: never `..`, `/` or a blank. */
export const IdSegmentSchema = z
  .string()
  .regex(/^[A-Za-z0-9][A-Za-z0-9._-]{0,127}$/, 'expected a run id: letters, digits, . _ -');

/** `POST /runs`: a run, as Ralph users already write it (prd.json and ralph.config.json inline). */
export const StartRunBodySchema = z.strictObject({
  repo: z
    .string()
    .min(1)
    .describe(
      'the repository: a git URL (https://, ssh:// or user@host:path); a local path only on a local server (ralph serve)',
    ),
  prd: PrdSchema.describe("Ralph's prd.json, inline"),
  config: RunConfigSchema.optional().describe('ralph.config.json, inline (defaults when absent)'),
  prdPath: z
    .string()
    .min(1)
    .optional()
    .describe(
      'where the run keeps prd.json in the repository (default prd.json; Ralph also uses scripts/ralph/prd.json)',
    ),
  project: z
    .string()
    .regex(/^[a-z0-9][a-z0-9-]{0,63}$/, 'expected a project id: a-z, 0-9 and -')
    .optional()
    .describe('the project the run learns for (default: from prd.json `project`)'),
});
export type StartRunBody = z.input<typeof StartRunBodySchema>;

/** Where to go next from a run. */
export const RunLinksSchema = z.object({
  self: z.string(),
  iterations: z.string(),
  cancel: z.string(),
  resume: z.string(),
});
export type RunLinks = z.infer<typeof RunLinksSchema>;

/** `202` to a start or a resume: the segment started and where to follow it. */
export const RunStartedSchema = z.object({
  runId: z.string(),
  segment: z.number().int().positive(),
  executionId: z.string(),
  links: RunLinksSchema,
});
export type RunStarted = z.infer<typeof RunStartedSchema>;

/**
 * `POST /runs/{id}/resume`: optional. `maxIterations` raises the run's limit, which is how
 * a run that stopped at its limit (or was cancelled) continues.
 */
export const ResumeRunBodySchema = z.strictObject({
  maxIterations: z
    .number()
    .int()
    .positive()
    .optional()
    .describe(
      "the run's new iteration limit; greater than the iterations it has used (needed to continue a run that stopped at its limit)",
    ),
});
export type ResumeRunBody = z.infer<typeof ResumeRunBodySchema>;

/** `GET /runs` query: a page of runs, newest first. */
export const RunsQuerySchema = z.strictObject({
  status: RunStatusSchema.optional(),
  limit: z.coerce.number().int().min(1).max(100).default(20),
  cursor: z.string().min(1).max(2048).optional(),
});
export type RunsQuery = z.input<typeof RunsQuerySchema>;

export const RunsPageSchema = z.object({
  runs: z.array(RunRecordSchema),
  /** Pass as `cursor` for the next page; absent on the last one. */
  nextCursor: z.string().optional(),
});
export type RunsPage = z.infer<typeof RunsPageSchema>;

/** `GET /runs/{id}`: the run (status, last failure, stop reason, evaluation) and its stories. */
export const RunViewSchema = z.object({
  run: RunRecordSchema,
  stories: z.array(TaskRecordSchema),
  links: RunLinksSchema,
});
export type RunView = z.infer<typeof RunViewSchema>;

export const IterationListSchema = z.object({ iterations: z.array(IterationRecordSchema) });
export type IterationList = z.infer<typeof IterationListSchema>;

/** `GET /runs/{id}/iterations/{n}`: the record, its artefacts, and its evaluation log. */
export const IterationViewSchema = z.object({
  iteration: IterationRecordSchema,
  /** Artefact name → the API path that redirects to it. */
  artefacts: z.record(z.string(), z.string()),
  evaluation: z.object({ summary: IterationEvaluationSummarySchema, log: z.unknown() }).optional(),
});
export type IterationView = z.infer<typeof IterationViewSchema>;

/** `POST /runs/{id}/cancel`: the run as it now stands (cancelled, or cancel requested). */
export const CancelResultSchema = z.object({ run: RunRecordSchema, links: RunLinksSchema });
export type CancelResult = z.infer<typeof CancelResultSchema>;

/** RFC 9457 problem details, with one line per invalid field (zod path first). */
export const ProblemSchema = z.object({
  type: z.string(),
  title: z.string(),
  status: z.number().int(),
  detail: z.string().optional(),
  instance: z.string().optional(),
  errors: z.array(z.string()).optional(),
  /** Stable, for clients to branch on: INVALID_INPUT, NOT_FOUND, RUN_STARTING, … */
  code: z.string().optional(),
});
export type Problem = z.infer<typeof ProblemSchema>;

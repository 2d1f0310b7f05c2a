/** A run as submitted (`runs/{runId}/request.json`), before init-run creates it. */
import { z } from 'zod';
import { RunConfigSchema } from './config.js';
import { PrdSchema } from './prd.js';
import { RunInvestigationSchema } from './investigation.js';
import { RepoRefSchema } from './run.js';

/**
 * What a submitter (the CLI, the API) stores at `runs/{runId}/request.json` before starting
 * segment 1; init-run validates it and creates the run from it.
 */
export const RunRequestSchema = z.object({
  runId: z.string().min(1),
  projectId: z.string().min(1),
  repo: RepoRefSchema,
  prdPath: z.string().min(1),
  prd: PrdSchema,
  config: RunConfigSchema,
  submittedAt: z.iso.datetime({ offset: true }),
  /**
   * Present on an investigate run: its tasks are these error groups (`prd` holds one story
   * per group, made from it, so the loop plans them as it plans any task).
   */
  investigation: RunInvestigationSchema.optional(),
});
export type RunRequest = z.infer<typeof RunRequestSchema>;

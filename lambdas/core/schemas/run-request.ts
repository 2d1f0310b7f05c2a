/** A run as submitted (`runs/{runId}/request.json`), before init-run creates it. */
import { z } from 'zod';
import { RunConfigSchema } from './config.js';
import { PrdSchema } from './prd.js';
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
});
export type RunRequest = z.infer<typeof RunRequestSchema>;

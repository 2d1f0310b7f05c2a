import { cancelRun, resumeStoredRun } from '../../core/runs/control-runs.js';
import { ResumeRunBodySchema } from '../../core/schemas/run-views.js';
import { parseOrThrow } from '../../core/shared/validation.js';
import type { SubmitDeps } from '../../core/steps/deps.js';
import { json, optionalJsonBodyOf } from '../http.js';
import type { ApiHandlers } from '../router.js';

/** POST /runs/{id}/cancel and /runs/{id}/resume (its body, `{ maxIterations }`, is optional). */
export function controlRoutes(deps: SubmitDeps): ApiHandlers {
  return {
    cancelRun: async ({ params }) => json(200, await cancelRun(deps, params.id!)),
    resumeRun: async ({ params, event }) => {
      const body = parseOrThrow(ResumeRunBodySchema, optionalJsonBodyOf(event), 'request body');
      return json(202, await resumeStoredRun(deps, params.id!, body));
    },
  };
}

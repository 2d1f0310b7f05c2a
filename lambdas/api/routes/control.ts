import { cancelRun, resumePausedRun } from '../../core/runs/control-runs.js';
import type { SubmitDeps } from '../../core/steps/deps.js';
import { json } from '../http.js';
import type { ApiHandlers } from '../router.js';

/** POST /runs/{id}/cancel and /runs/{id}/resume. */
export function controlRoutes(deps: SubmitDeps): ApiHandlers {
  return {
    cancelRun: async ({ params }) => json(200, await cancelRun(deps, params.id!)),
    resumeRun: async ({ params }) => json(202, await resumePausedRun(deps, params.id!)),
  };
}

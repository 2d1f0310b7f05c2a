import {
  listIterations,
  listRuns,
  parseIterationNumber,
  showIteration,
  showRun,
} from '../../core/runs/read-runs.js';
import type { LoopDeps } from '../../core/steps/deps.js';
import { json } from '../http.js';
import type { ApiHandlers } from '../router.js';

export type ReadRouteDeps = Pick<LoopDeps, 'runs' | 'artefacts'>;

/** GET /runs, /runs/{id}, /runs/{id}/iterations, /runs/{id}/iterations/{n}. */
export function readRoutes(deps: ReadRouteDeps): ApiHandlers {
  return {
    listRuns: async ({ query }) => json(200, await listRuns(deps, query)),
    getRun: async ({ params }) => json(200, await showRun(deps, params.id!)),
    listIterations: async ({ params }) => json(200, await listIterations(deps, params.id!)),
    getIteration: async ({ params }) =>
      json(200, await showIteration(deps, params.id!, parseIterationNumber(params.n!))),
  };
}

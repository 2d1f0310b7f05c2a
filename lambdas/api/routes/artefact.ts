import {
  parseIterationNumber,
  verifiedArtefactKey,
  verifiedRunArtefactKey,
} from '../../core/runs/read-runs.js';
import { redirect } from '../http.js';
import type { ApiHandlers } from '../router.js';
import { ARTEFACT_URL_SECONDS } from '../route-table.js';
import type { ReadRouteDeps } from './read.js';

export interface ArtefactRouteDeps extends ReadRouteDeps {
  /** A URL that reads `key` without credentials until it expires. */
  signUrl: (key: string, expiresInSeconds: number) => Promise<string>;
}

/**
 * GET /runs/{id}/iterations/{n}/artefacts/{name} and GET /runs/{id}/artefacts/{name}: `302`
 * to a URL valid 5 minutes; `409` when the artefact's bytes changed since they were written.
 */
export function artefactRoutes(deps: ArtefactRouteDeps): ApiHandlers {
  return {
    getArtefact: async ({ params }) => {
      const key = await verifiedArtefactKey(
        deps,
        params.id!,
        parseIterationNumber(params.n!),
        params.name!,
      );
      return redirect(await deps.signUrl(key, ARTEFACT_URL_SECONDS));
    },
    getRunArtefact: async ({ params }) => {
      const key = await verifiedRunArtefactKey(deps, params.id!, params.name!);
      return redirect(await deps.signUrl(key, ARTEFACT_URL_SECONDS));
    },
  };
}

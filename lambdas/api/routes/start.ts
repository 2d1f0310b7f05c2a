import {
  parseStartRun,
  startParsedRun,
  type ParsedStartRun,
  type StartRunDeps,
} from '../../core/runs/start-run.js';
import { json, jsonBodyOf } from '../http.js';
import { idempotencyKeyOf, oncePerKey, type IdempotencyStore } from '../idempotency.js';
import type { ApiHandlers } from '../router.js';

export interface StartRouteDeps extends StartRunDeps {
  /** A local server takes local paths and URLs only this machine reaches; a deployment does not. */
  allowLocalRepos: boolean;
  idempotency: IdempotencyStore;
}

/**
 * POST /runs. Everything is checked before anything is written (body size, media type,
 * JSON, schema, repo, key); only then is the idempotency record taken and the run started.
 */
export function startRoutes(deps: StartRouteDeps): ApiHandlers {
  const start = (request: ParsedStartRun) => startParsedRun(deps, request);
  const startOnce = oncePerKey(start, deps.idempotency);
  return {
    startRun: async ({ event, headers, caller, context }) => {
      const body = jsonBodyOf(event);
      const key = idempotencyKeyOf(headers);
      const request = parseStartRun(body, { allowLocalRepos: deps.allowLocalRepos });
      const started =
        key === undefined
          ? await start(request)
          : await startOnce({ caller, key, body: request }, context);
      return json(202, started);
    },
  };
}

import { json } from '../http.js';
import { openApiDocument } from '../openapi.js';
import type { ApiHandlers } from '../router.js';

/** The version of the API's contract (not of the package): it changes when a route does. */
export const API_VERSION = '1.0.0';

/** GET /openapi.json, generated once per process. */
export function openApiRoutes(): ApiHandlers {
  let document: unknown;
  return {
    getOpenApi: async () => {
      document ??= openApiDocument({ version: API_VERSION });
      return json(200, document);
    },
  };
}

import { apiRouter } from '../api/router.js';
import { openApiRoutes } from '../api/routes/openapi.js';

/** GET /openapi.json. */
export const handler = apiRouter(openApiRoutes());

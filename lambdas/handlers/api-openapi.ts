import { apiRouter } from '../api/router.js';
import { apiLogger } from './api-logger.js';
import { openApiRoutes } from '../api/routes/openapi.js';

/** GET /openapi.json. */
export const handler = apiRouter(openApiRoutes(), apiLogger);

import { apiRouter } from '../api/router.js';
import { apiLogger } from './api-logger.js';
import { controlRoutes } from '../api/routes/control.js';
import { submitDepsFromEnvironment } from './api-environment.js';

/** POST /runs/{id}/cancel and /runs/{id}/resume. */
export const handler = apiRouter(controlRoutes(submitDepsFromEnvironment()), apiLogger);

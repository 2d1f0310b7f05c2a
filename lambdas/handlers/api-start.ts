import { apiRouter } from '../api/router.js';
import { apiLogger } from './api-logger.js';
import { startRoutes } from '../api/routes/start.js';
import { startDepsFromEnvironment } from './api-environment.js';

/** POST /runs. */
export const handler = apiRouter(startRoutes(startDepsFromEnvironment()), apiLogger);

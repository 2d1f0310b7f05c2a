import { apiRouter } from '../api/router.js';
import { apiLogger } from './api-logger.js';
import { readRoutes } from '../api/routes/read.js';
import { depsFromEnvironment } from './store-environment.js';

/** GET /runs, /runs/{id}, /runs/{id}/iterations, /runs/{id}/iterations/{n}. */
export const handler = apiRouter(readRoutes(depsFromEnvironment()), apiLogger);

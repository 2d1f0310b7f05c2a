import { apiRouter } from '../api/router.js';
import { projectRoutes } from '../api/routes/projects.js';
import { apiLogger } from './api-logger.js';
import { projectDepsFromEnvironment } from './api-environment.js';

/** GET /projects, and GET, PUT and DELETE /projects/{projectId}. */
export const handler = apiRouter(projectRoutes(projectDepsFromEnvironment()), apiLogger);

import { apiRouter } from '../api/router.js';
import { apiLogger } from './api-logger.js';
import { artefactRoutes } from '../api/routes/artefact.js';
import { artefactDepsFromEnvironment } from './api-environment.js';

/** GET /runs/{id}/iterations/{n}/artefacts/{name} and GET /runs/{id}/artefacts/{name}. */
export const handler = apiRouter(artefactRoutes(artefactDepsFromEnvironment()), apiLogger);

import { apiRouter } from '../api/router.js';
import { hookRoutes } from '../api/routes/hooks.js';
import { apiLogger } from './api-logger.js';
import { hookDepsFromEnvironment } from './intake-environment.js';

/** POST /hooks/sentry and /hooks/newrelic: no IAM; each sender checked by its own scheme. */
export const handler = apiRouter(hookRoutes(hookDepsFromEnvironment()), apiLogger);

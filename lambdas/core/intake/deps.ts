import type { BatchScheduler, IncidentStore, ProjectRoutes } from '../../ports.js';
import type { SubmitDeps } from '../steps/deps.js';

/** What the intake works through: the hooks' store, the routes, the scheduler and run submission. */
export interface IntakeDeps extends SubmitDeps {
  incidents: IncidentStore;
  routes: ProjectRoutes;
  scheduler: BatchScheduler;
  /** A fresh run id (time-sortable, random: see newRunId), named when a batch opens. */
  newRunId(): string;
  /** A local server takes a route whose repo is a local path; a deployment does not. */
  allowLocalRepos: boolean;
}

/**
 * `ralph projects list|show|set|delete`: the routes from a sender's project (a Sentry
 * project, a New Relic policy, a CloudWatch alarm) to the repository its errors are
 * investigated in.
 */
import { expectedVersionOf } from '../../../lambdas/core/projects/project-routes.js';
import type { BackendOptions } from '../backend/with-backend.js';
import { EXIT } from '../exit-codes.js';
import type { Output } from '../output.js';
import { readJson } from '../run-input.js';
import { withProjects } from './projects-backend.js';
import { projectLines, projectsTable } from './projects-render.js';

export async function projectsListCommand(
  options: BackendOptions,
  output: Output,
): Promise<number> {
  return withProjects(options, async (projects) => {
    const routes = await projects.list();
    output.line(
      routes.length === 0
        ? 'no project routes yet: add one with `ralph projects set PROJECT FILE`'
        : projectsTable(routes),
    );
    output.data({ projects: routes });
    return EXIT.ok;
  });
}

export async function projectsShowCommand(
  projectId: string,
  options: BackendOptions,
  output: Output,
): Promise<number> {
  return withProjects(options, async (projects) => {
    const route = await projects.get(projectId);
    for (const line of projectLines(route)) output.line(line);
    output.data(route);
    return EXIT.ok;
  });
}

export interface ProjectsSetOptions extends BackendOptions {
  /** Save only over this version (what `show` printed): a route changed since is refused. */
  ifVersion?: string;
}

export async function projectsSetCommand(
  projectId: string,
  file: string,
  options: ProjectsSetOptions,
  output: Output,
): Promise<number> {
  // Read and checked before the store is opened: a bad file writes nothing.
  const body = await readJson(file);
  const expectedVersion = expectedVersionOf(options.ifVersion, '--if-version');
  return withProjects(options, async (projects) => {
    const route = await projects.put(projectId, body, expectedVersion);
    output.line(
      `project ${route.projectId}: route ${route.version === 1 ? 'created' : `saved (version ${route.version})`}`,
    );
    for (const line of projectLines(route).slice(1)) output.line(line);
    output.data(route);
    return EXIT.ok;
  });
}

export async function projectsDeleteCommand(
  projectId: string,
  options: BackendOptions,
  output: Output,
): Promise<number> {
  return withProjects(options, async (projects) => {
    await projects.remove(projectId);
    output.line(`project ${projectId}: route deleted (its error groups and runs are kept)`);
    output.data({ projectId, deleted: true });
    return EXIT.ok;
  });
}

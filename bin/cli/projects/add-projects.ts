import type { Command } from 'commander';
import { endpointOption, type CommandContext } from '../command-context.js';
import {
  projectsDeleteCommand,
  projectsListCommand,
  projectsSetCommand,
  projectsShowCommand,
} from './projects-commands.js';

/** `ralph projects …`: which repository each sender's project is investigated in. */
export function addProjects(program: Command, { setExit, globals, out }: CommandContext): void {
  const projects = program
    .command('projects')
    .description(
      "project routes: which repository, branch, gates and limits a Sentry project's, New Relic policy's or CloudWatch alarm's errors are investigated with",
    );
  projects
    .command('list')
    .description('every project route')
    .addOption(endpointOption())
    .action(async (options: { endpoint?: string }) => {
      setExit(await projectsListCommand({ ...globals(), ...options }, out()));
    });
  projects
    .command('show')
    .argument('<project>', 'project id')
    .description("one project's route")
    .addOption(endpointOption())
    .action(async (projectId: string, options: { endpoint?: string }) => {
      setExit(await projectsShowCommand(projectId, { ...globals(), ...options }, out()));
    });
  projects
    .command('set')
    .argument('<project>', 'project id (a-z, 0-9 and -)')
    .argument(
      '<file>',
      'the route as JSON: { matches: [{ kind, key }], repo, baseBranch?, codeHost?, config?, investigate? } (README: "Error-triggered runs")',
    )
    .description("create or replace a project's route, checked whole before anything is saved")
    .option(
      '--if-version <n>',
      'save only over this version (as `show` printed it): a route changed since is refused',
    )
    .addOption(endpointOption())
    .action(
      async (
        projectId: string,
        file: string,
        options: { endpoint?: string; ifVersion?: string },
      ) => {
        setExit(await projectsSetCommand(projectId, file, { ...globals(), ...options }, out()));
      },
    );
  projects
    .command('delete')
    .argument('<project>', 'project id')
    .description("delete a project's route (its error groups and runs are kept)")
    .addOption(endpointOption())
    .action(async (projectId: string, options: { endpoint?: string }) => {
      setExit(await projectsDeleteCommand(projectId, { ...globals(), ...options }, out()));
    });
}

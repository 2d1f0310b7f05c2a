/**
 * `ralph learning PROJECT`: what injecting what was learned did for a project, its runs'
 * tasks pooled (with injection, the control share, nothing to inject), with the numbers of
 * tasks and whether they are enough to conclude.
 */
import type { Command } from 'commander';
import { projectLearningReport } from '../../../lambdas/core/runs/learning-reports.js';
import type { BackendOptions } from '../backend/with-backend.js';
import { endpointOption, type CommandContext } from '../command-context.js';
import { EXIT } from '../exit-codes.js';
import type { Output } from '../output.js';
import { withSession } from '../session.js';
import { effectTable } from './learning-report-render.js';
import { checkedProject, refuseEndpoint } from './learning-session.js';

export async function learningCommand(
  project: string,
  options: BackendOptions,
  output: Output,
): Promise<number> {
  refuseEndpoint('learning', options);
  const projectId = checkedProject(project);
  return withSession(options, async ({ stack }) => {
    const report = await projectLearningReport(stack.deps, projectId);
    if (report.runs === 0) {
      output.line(`project ${projectId}: no run has ended with a learning report yet`);
    } else {
      output.line(`project ${projectId}: ${report.runs} run(s) with a learning report`);
      output.line(effectTable(report));
    }
    output.data(report);
    return EXIT.ok;
  });
}

export function addLearning(program: Command, { setExit, globals, out }: CommandContext): void {
  program
    .command('learning')
    .argument('<project>', 'project id')
    .description(
      'what injecting hints, rules and patterns did for a project: pass rate and iterations to pass with injection, in the control share and with nothing to inject, over its runs (local data directory only for now)',
    )
    .addOption(endpointOption())
    .action(async (project: string, options: { endpoint?: string }) => {
      setExit(await learningCommand(project, { ...globals(), ...options }, out()));
    });
}

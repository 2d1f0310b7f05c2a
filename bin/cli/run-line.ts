/**
 * The line that opens a run, in local and remote mode alike: what it works on, how far it
 * may go, and what checks the agent's work. A run without gates says that nothing will.
 */
import type { RunConfig } from '../../lambdas/core/schemas/config.js';
import type { Prd } from '../../lambdas/core/schemas/prd.js';

export function runLine(runId: string, prd: Prd, config: RunConfig): string {
  const gates =
    config.gates.length === 0
      ? 'no gates: nothing will be verified'
      : `gates: ${config.gates.map((gate) => gate.name).join(', ')}`;
  return `run ${runId} · ${prd.project} · branch ${prd.branchName} · ${prd.userStories.length} stories · up to ${config.limits.maxIterations} iterations · ${gates}`;
}

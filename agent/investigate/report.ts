/**
 * An investigation's artefacts and result.json: investigation.json (the same result as
 * result.json's `investigation`), every pass's prompt in prompt.md, the transcript, the
 * fix's patch and the gates' full output, through the runner's own writers.
 */
import type { IterationResult } from '../../lambdas/core/schemas/iteration-result.js';
import type { InvestigationResult } from '../../lambdas/core/schemas/investigation.js';
import type { AgentSessionUsage } from '../../lambdas/core/schemas/cost-receipt.js';
import { passesUsage } from '../../lambdas/core/costs/agent-session-usage.js';
import type { GateRun } from '../checks/gates.js';
import type { Verdict } from '../runner/agent-outcome.js';
import { putArtefactBestEffort } from '../runner/artefacts.js';
import { writeChangeArtefacts } from '../runner/change-artefacts.js';
import type { Facts } from '../runner/facts.js';
import { report } from '../runner/result.js';
import type { FixCopy } from './fix-copy.js';

/** Where the agents' and the gates' time went, over every pass and every gate run. */
export interface Timing {
  agentMs: number;
  gatesMs: number;
  /** The last agent's exit code (none when no agent ran). */
  lastExitCode?: number | null;
}

export interface InvestigationReport {
  verdict: Verdict;
  /** Absent when the investigation did not conclude (an agent failed, a stop). */
  investigation?: InvestigationResult;
  patch: string | Uint8Array;
  filesChanged: readonly string[];
  /** The gates as they stand at the end (the fix's, else the base's). */
  gateRuns: GateRun[];
  timing: Timing;
}

/** Writes the artefacts (best effort) and result.json. */
export async function reportInvestigation(
  fix: FixCopy,
  before: Facts,
  done: InvestigationReport,
): Promise<IterationResult> {
  const { it } = fix;
  const [change, prompt, written] = await Promise.all([
    writeChangeArtefacts(it, fix, done.patch, done.gateRuns),
    putArtefactBestEffort(it, 'prompt.md', fix.prompts.join('\n\n---\n\n')),
    done.investigation
      ? putArtefactBestEffort(
          it,
          'investigation.json',
          `${JSON.stringify(done.investigation, null, 2)}\n`,
        )
      : Promise.resolve({}),
  ]);
  const facts: Facts = {
    ...before,
    prompt,
    ...(done.timing.lastExitCode === undefined
      ? {}
      : {
          agent: {
            exitCode: done.timing.lastExitCode,
            ms: done.timing.agentMs,
            claimedComplete: false,
            // An investigation's passes report in analysis.json, not in a final message.
            report: { learnings: [] },
            ...usageOf(done.investigation?.passes ?? []),
          },
        }),
    gates: { results: done.gateRuns.map((run) => run.result), ms: done.timing.gatesMs },
    filesChanged: [...done.filesChanged],
    change,
    ...(done.investigation ? { investigation: { result: done.investigation, written } } : {}),
  };
  return report(it, done.verdict, facts);
}

/** The passes' usage for the iteration's receipt, when any pass reported some. */
function usageOf(passes: Parameters<typeof passesUsage>[0]): { usage?: AgentSessionUsage } {
  const usage = passesUsage(passes);
  return usage ? { usage } : {};
}

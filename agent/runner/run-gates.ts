/**
 * The gates stage: the project's checks run on the agent's change, and the quality
 * settings judge what they printed and the change itself.
 */
import { changedFiles } from '../../lambdas/core/control/quality/changed-files.js';
import {
  assessQuality,
  type QualityAssessment,
} from '../../lambdas/core/control/quality/enforce.js';
import type { Verdict } from './agent-outcome.js';
import type { CancelWatch } from './cancel-watch.js';
import {
  blockingGatesPassed,
  describeGateFailures,
  runGates,
  type GateRun,
} from '../checks/gates.js';
import type { StagedChange } from './after-agent.js';
import { checkBranches } from './branch-check.js';
import type { Facts } from './facts.js';
import { killGrace, type Iteration } from './iteration.js';
import type { Session } from './prepare.js';
import { stopVerdict } from './stop.js';

export interface Gated {
  /** The gates as run, their results as quality enforcement judged them (for gates.json). */
  runs: GateRun[];
  facts: Pick<Facts, 'gates' | 'findings'>;
  /** Undefined when the change counts. */
  rejection?: Verdict;
}

/**
 * Runs the gates on the agent's change (HEAD on the run branch at `head`) and judges them:
 * a cancel or an interruption while they ran, a failed blocking gate, or gates that
 * touched the branches reject the change.
 */
export async function gateChange(
  it: Iteration,
  session: Session,
  staged: { change: StagedChange; head: string },
  cancel: CancelWatch,
): Promise<Gated> {
  const started = performance.now();
  const gateRuns = await runGates(it.run.config.gates, session.workspace.dir, {
    spawner: it.deps.spawner,
    signal: cancel.signal,
    ...killGrace(it.deps),
  });
  const ms = performance.now() - started;
  // The quality settings judge what the gates printed and the change itself; the patch
  // taken before the gates is the agent's change (no second git process for numstat).
  const quality = assessQuality(
    {
      gates: gateRuns.map((gateRun) => ({ ...gateRun.result, output: gateRun.output })),
      files: changedFiles(new TextDecoder().decode(staged.change.patch)),
    },
    it.run.config.control.quality,
  );
  // gates.json and the observation record the gates as judged.
  const runs = gateRuns.map((gateRun, index) => ({
    ...gateRun,
    result: quality.gates[index] ?? gateRun.result,
  }));
  it.log('gates', {
    gates: quality.gates.map(({ name, passed }) => ({ name, passed })),
    ...(quality.overruled.length > 0 ? { overruled: quality.overruled } : {}),
    ...(quality.findings.length > 0 ? { findings: quality.findings.length } : {}),
  });
  // The gates run the agent's code, which may touch the branches too (when none ran,
  // nothing did since the agent's check).
  const strayed =
    gateRuns.length > 0
      ? (await checkBranches(it, session, 'the gates', staged.head)).problems
      : undefined;
  const facts = { gates: { results: quality.gates, ms }, findings: quality.findings };
  if (cancel.signal.aborted)
    return { runs, facts, rejection: stopVerdict(cancel, 'while the gates ran') };
  if (blockingGatesPassed(quality.gates) && !strayed) return { runs, facts };
  return { runs, facts, rejection: gatesFailed(quality, strayed) };
}

function gatesFailed(quality: QualityAssessment, strayed: string | undefined): Verdict {
  const failed = quality.gates
    .filter((gate) => gate.blocking && !gate.passed)
    .map((gate) => gate.name);
  const causes = [
    ...(failed.length > 0
      ? [
          `blocking gate${failed.length > 1 ? 's' : ''} failed: ${failed
            .map((name) => withQualityReason(name, quality))
            .join(', ')}`,
        ]
      : []),
    ...(strayed ? [strayed] : []),
  ];
  return {
    outcome: 'gates_failed',
    cause: causes.join('; '),
    failureDetail: [describeGateFailures(quality.gates), strayed ?? '']
      .filter((part) => part !== '')
      .join('\n\n'),
  };
}

/** A failed gate's name, with why the quality settings failed it when its exit code did not. */
function withQualityReason(name: string, quality: QualityAssessment): string {
  const overruled = quality.overruled.find((entry) => entry.gate === name);
  return overruled ? `${name} (${overruled.reason})` : name;
}

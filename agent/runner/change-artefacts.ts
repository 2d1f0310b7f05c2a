/**
 * transcript.jsonl, diff.patch and (when the gates ran) gates.json with full outputs,
 * written side by side, and loop control's observation of the iteration.
 */
import { GatesDocumentSchema, type GatesDocument } from '../../lambdas/core/schemas/documents.js';
import type { IterationArtefact } from '../../lambdas/core/shared/artefact-keys.js';
import { observeIteration } from '../../lambdas/core/control/observation.js';
import { type RunnerObservation } from '../../lambdas/core/schemas/observation.js';
import type { GateRun } from '../checks/gates.js';
import { putArtefactBestEffort } from './artefacts.js';
import type { ChangeArtefacts } from './facts.js';
import type { Iteration } from './iteration.js';
import type { Session } from './prepare.js';

/**
 * Best effort, never rejected: a write that fails is logged and left out of the result's
 * artefacts; it never changes the outcome. No gates.json for a run without gates.
 */
export async function writeChangeArtefacts(
  it: Iteration,
  session: Pick<Session, 'transcript' | 'workspace'>,
  patch: string | Uint8Array,
  gateRuns: GateRun[] | undefined,
): Promise<ChangeArtefacts> {
  const transcript = session.transcript.toJsonl();
  const observation = observe(it, session, patch, gateRuns, transcript);
  const artefacts: [IterationArtefact, string | Uint8Array][] = [
    ['transcript.jsonl', transcript],
    ['diff.patch', patch],
  ];
  if (gateRuns && it.run.config.gates.length > 0) {
    const gates: GatesDocument['gates'] = gateRuns.map(({ result, command, output }) => ({
      name: result.name,
      command,
      blocking: result.blocking,
      passed: result.passed,
      exitCode: result.exitCode,
      timedOut: result.timedOut,
      durationMs: result.durationMs,
      output,
    }));
    const document = GatesDocumentSchema.parse({ gates } satisfies GatesDocument);
    artefacts.push(['gates.json', `${JSON.stringify(document, null, 2)}\n`]);
  }
  const written = await Promise.all(
    artefacts.map(([name, body]) => putArtefactBestEffort(it, name, body)),
  );
  // Listed in a fixed order, whichever write finished first.
  return {
    written: Object.assign({}, ...written) as Record<string, string>,
    ...(observation ? { observation } : {}),
  };
}

/** What the loop's decisions read of this iteration; evidence, so a failure only logs. */
function observe(
  it: Iteration,
  session: Pick<Session, 'workspace'>,
  patch: string | Uint8Array,
  gateRuns: GateRun[] | undefined,
  transcript: string,
): RunnerObservation | undefined {
  try {
    return observeIteration({
      patch: typeof patch === 'string' ? patch : new TextDecoder().decode(patch),
      gates: (gateRuns ?? []).map(({ result, command, output }) => ({
        name: result.name,
        command,
        passed: result.passed,
        timedOut: result.timedOut,
        output,
      })),
      transcript,
      cwd: session.workspace.dir,
    });
  } catch (error) {
    it.log('observation-failed', { error: (error as Error).message });
    return undefined;
  }
}

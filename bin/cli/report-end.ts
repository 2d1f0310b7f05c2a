import { NotFoundError } from '../../lambdas/core/errors.js';
import type { RunRecord } from '../../lambdas/core/schemas/run.js';
import type { RunView } from '../../lambdas/core/schemas/run-views.js';
import type { RunBackend } from './backend/run-backend.js';
import { CliError } from './errors.js';
import { evaluationReport } from './evaluation-render.js';
import { EXIT } from './exit-codes.js';
import type { Output } from './output.js';
import { iterationsTable, tasksTable } from './render.js';
import type { ResolvedRunInput } from './run-input.js';

/** The agent as the first line of a run names it: its command and how it was chosen. */
export function agentLabel(input: ResolvedRunInput): string {
  return `${input.config.agent.command ?? ''} (${input.agentSource})`;
}

/** The closing summary: status, tasks, iterations and where the artefacts are. */
export async function reportEnd(
  backend: RunBackend,
  runId: string,
  output: Output,
): Promise<number> {
  let view: RunView;
  try {
    view = await backend.showRun(runId);
  } catch (error) {
    if (!(error instanceof NotFoundError || error instanceof CliError)) throw error;
    output.line(`run ${runId} was not created (see the error above)`);
    output.data({ runId, status: 'not_created' });
    return EXIT.internal;
  }
  const { run, stories: tasks } = view;
  const iterations = await backend.listIterations(runId);
  output.line('');
  output.line(`run ${runId}: ${run.status}${run.stopReason ? ` — ${run.stopReason}` : ''}`);
  output.line(tasksTable(tasks));
  output.line(iterationsTable(iterations));
  const evaluation = evaluationReport(run, iterations, (key) => backend.describeArtefact(key));
  if (evaluation) output.line(evaluation);
  output.line(`artefacts: ${backend.describeArtefact(`runs/${runId}/`)}`);
  output.line(
    `details:   ralph show ${runId} --iteration N${backend.flags}   ·   ralph status ${runId}${backend.flags}`,
  );
  output.data({ run, tasks, iterations });
  return exitCodeForStatus(run);
}

export function exitCodeForStatus(run: RunRecord): number {
  if (run.status === 'completed') return EXIT.ok;
  if (run.status === 'paused') return EXIT.paused;
  if (run.status === 'running') return EXIT.internal;
  return EXIT.runNotCompleted;
}

import { randomBytes } from 'node:crypto';
import { newRunId, submitRun } from '../../../lambdas/core/steps/lifecycle.js';
import type { RunRecord } from '../../../lambdas/core/schemas/run.js';
import { EXIT } from '../exit-codes.js';
import type { Output } from '../output.js';
import { evaluationReport } from '../evaluation-render.js';
import { iterationsTable, tasksTable } from '../render.js';
import { resolveRunInput, type ResolvedRunInput, type RunFlags } from '../run-input.js';
import { withSession, type GlobalOptions, type Session } from '../session.js';
import { watchRun } from '../watch.js';

export interface RunCommandOptions extends RunFlags, GlobalOptions {}

/** `ralph run`: validate, start segment 1 on the local stack, watch it to the end. */
export async function runCommand(options: RunCommandOptions, output: Output): Promise<number> {
  const input = await resolveRunInput(options);
  return withSession(
    options,
    (session) => startAndWatch(session, input, output, { agentLabel: agentLabel(input) }),
    { executes: true },
  );
}

export function agentLabel(input: ResolvedRunInput): string {
  return `${input.config.agent.command ?? ''} (${input.agentSource})`;
}

/** Starts a run and follows it to the end of its last segment; returns the exit code. */
export async function startAndWatch(
  session: Session,
  input: ResolvedRunInput,
  output: Output,
  labels: {
    agentLabel: string;
    /** A line after the first (which names agent and judge). */ note?: string;
  },
): Promise<number> {
  const { deps, executions } = session.stack;
  const runId = newRunId(deps.clock.now(), randomBytes(3).toString('hex'));
  output.line(
    `ralph-cloud · local stack · agent: ${labels.agentLabel}${
      input.config.evaluation.enabled ? ` · judge: ${session.stack.judgeLabel}` : ''
    }`,
  );
  if (labels.note) output.line(labels.note);
  output.line(
    `run ${runId} · ${input.prd.project} · branch ${input.prd.branchName} · ${input.prd.userStories.length} stories · up to ${input.config.limits.maxIterations} iterations`,
  );
  await watchRun(
    session,
    runId,
    () =>
      submitRun(
        { ...deps, executions },
        {
          runId,
          repo: { kind: 'local', path: input.repoPath },
          prdPath: input.prdPath,
          prd: input.prd,
          config: input.config,
        },
      ),
    { json: output.json },
  );
  return reportEnd(session, runId, output);
}

/** The closing summary: status, tasks, iterations and where the artefacts are. */
export async function reportEnd(session: Session, runId: string, output: Output): Promise<number> {
  const { runs } = session.stack.deps;
  const run = await runs.getRun(runId);
  if (!run) {
    output.line(`run ${runId} was not created (see the error above)`);
    output.data({ runId, status: 'not_created' });
    return EXIT.internal;
  }
  const [tasks, iterations] = await Promise.all([
    runs.listTasks(runId),
    runs.listIterations(runId),
  ]);
  output.line('');
  output.line(`run ${runId}: ${run.status}${run.stopReason ? ` — ${run.stopReason}` : ''}`);
  output.line(tasksTable(tasks));
  output.line(iterationsTable(iterations));
  const evaluation = evaluationReport(run, iterations, (key) =>
    session.stack.describeArtefact(key),
  );
  if (evaluation) output.line(evaluation);
  output.line(`artefacts: ${session.stack.describeArtefact(`runs/${runId}/`)}`);
  output.line(`details:   ralph show ${runId} --iteration N   ·   ralph status ${runId}`);
  output.data({ run, tasks, iterations });
  return exitCodeForStatus(run);
}

export function exitCodeForStatus(run: RunRecord): number {
  if (run.status === 'completed') return EXIT.ok;
  if (run.status === 'paused') return EXIT.paused;
  if (run.status === 'running') return EXIT.internal;
  return EXIT.runNotCompleted;
}

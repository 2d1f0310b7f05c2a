import { randomBytes } from 'node:crypto';
import { runThroughApi } from './run-remote.js';
import { agentLabel, reportEnd } from '../report-end.js';
import { newRunId, submitRun } from '../../../lambdas/core/steps/lifecycle.js';
import { localBackend } from '../backend/local-backend.js';
import type { Output } from '../output.js';
import { resolveRunInput, type ResolvedRunInput, type RunFlags } from '../run-input.js';
import { withSession, type GlobalOptions, type Session } from '../session.js';
import { watchRun } from '../watch.js';
import { runLine } from '../run-line.js';
import { repositoryHolder, RepositoryInUseError } from '../../../local/repository-lock.js';
import { checkFollow } from '../live/follow-flags.js';

export interface RunCommandOptions extends RunFlags, GlobalOptions {
  endpoint?: string;
  /** Print the agent's output as it comes too. */
  follow?: boolean;
}

/**
 * `ralph run`: validate, start segment 1 on the local stack (or through the Run API at
 * `--endpoint`), watch it to the end.
 */
export async function runCommand(options: RunCommandOptions, output: Output): Promise<number> {
  checkFollow(options);
  if (options.endpoint) return runThroughApi({ ...options, endpoint: options.endpoint }, output);
  const input = await resolveRunInput(options);
  return withSession(options, (session) =>
    startAndWatch(session, input, output, {
      agentLabel: agentLabel(input),
      follow: options.follow === true,
    }),
  );
}

/** Starts a run and follows it to the end of its last segment; returns the exit code. */
export async function startAndWatch(
  session: Session,
  input: ResolvedRunInput,
  output: Output,
  labels: {
    agentLabel: string;
    /** A line after the first (which names agent and judge). */ note?: string;
    /** `--follow`: the agent's output too, as it comes. */ follow?: boolean;
  },
): Promise<number> {
  const { deps, executions } = session.stack;
  // Refused before anything is written; the run's claim when it starts is the guard.
  const holder = await repositoryHolder(input.repoPath);
  if (holder) throw new RepositoryInUseError(input.repoPath, holder);
  const runId = newRunId(deps.clock.now(), randomBytes(3).toString('hex'));
  output.line(
    `ralph-cloud · local stack · agent: ${labels.agentLabel}${
      input.config.evaluation.enabled ? ` · judge: ${session.stack.judgeLabel}` : ''
    }`,
  );
  if (labels.note) output.line(labels.note);
  output.line(runLine(runId, input.prd, input.config));
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
    { json: output.json, follow: labels.follow === true },
  );
  return reportEnd(localBackend(session.stack, session.flags), runId, output);
}

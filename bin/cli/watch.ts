import ora, { type Ora } from 'ora';
import type { IterationRecord } from '../../lambdas/core/schemas/iteration.js';
import type { LoopState } from '../../lambdas/core/schemas/loop-state.js';
import type { Session } from './session.js';
import { iterationLine } from './render.js';
import { followLiveOutput, type LiveOutput } from './live/live-output.js';

export interface WatchOptions {
  json: boolean;
  /** Human output goes here (stdout by default). */
  write?: (line: string) => void;
  /** `--follow`: the agent's output too, as it comes, between the iteration lines. */
  follow?: boolean;
}

/**
 * Starts the run's execution (`start`) and prints a live line per iteration (task, gates,
 * commit, duration and, when it was evaluated, both modes' figures) while its segments go
 * on in this process, with a spinner between lines on a terminal.
 * An iteration's line is printed once Advance has recorded it (after its evaluation, when
 * the run evaluates); the spinner of the next one starts when InitRun or Advance planned
 * it. With `follow`, the agent's output is printed as it comes (live/live-output.ts), all
 * of an iteration's before its line. Returns every iteration it saw done.
 */
export async function watchRun(
  session: Session,
  runId: string,
  start: () => Promise<unknown>,
  options: WatchOptions,
): Promise<IterationRecord[]> {
  const write = options.write ?? ((line: string) => process.stdout.write(`${line}\n`));
  const seen: IterationRecord[] = [];
  // The agent's output is what shows progress then; a spinner would tear its lines.
  const live: LiveOutput | undefined = options.follow
    ? followLiveOutput(session.dataDir, runId, { write, fromFirstAllowed: true })
    : undefined;
  const spinner: Ora | undefined =
    !options.json && !live && process.stdout.isTTY ? ora({ discardStdin: false }) : undefined;
  let pending = Promise.resolve();

  /** The line of an iteration Advance has recorded. */
  const printLine = (iteration: number) => {
    pending = pending.then(async () => {
      const record = await session.stack.deps.runs.getIteration(runId, iteration);
      spinner?.stop();
      if (!record) return;
      await live?.drain(iteration);
      seen.push(record);
      if (!options.json) write(iterationLine(record));
    });
  };

  /** The spinner for an iteration whose agent and gates are about to run. */
  const announce = (iteration: number | undefined) => {
    pending = pending.then(async () => {
      if (iteration !== undefined) live?.allow(iteration);
      const record =
        iteration === undefined
          ? undefined
          : await session.stack.deps.runs.getIteration(runId, iteration);
      spinner?.start(
        `iteration ${iteration ?? '?'} · ${record?.taskId ?? ''} ${record?.taskTitle ?? ''} · agent and gates running`,
      );
    });
  };

  session.onStep((event) => {
    const input = event.input as Partial<LoopState> | undefined;
    const output = event.output as Partial<LoopState> | undefined;
    if ((output ?? input)?.runId !== runId) return;
    if (event.state === 'Advance' && input?.iteration !== undefined) printLine(input.iteration);
    if ((event.state === 'Advance' || event.state === 'InitRun') && output?.planned)
      announce(output.iteration);
    if (event.state === 'CollectArtefacts' && output?.evaluation && !event.error) {
      const { iteration } = output;
      const count = output.evaluation.artefactIds.length;
      pending = pending.then(() => {
        spinner?.start(
          `iteration ${iteration ?? '?'} · evaluating ${count} artefact${count === 1 ? '' : 's'}: judge and cheap mode`,
        );
      });
    }
  });

  try {
    await start();
    const outcome = await session.stack.executions.waitForRun(runId);
    await pending;
    await live?.stop();
    if (outcome?.status === 'FAILED' && !options.json)
      write(`execution ${outcome.name} failed: ${outcome.error ?? 'unknown error'}`);
    return seen;
  } finally {
    spinner?.stop();
    session.onStep(undefined);
    await live?.stop();
  }
}

import ora, { type Ora } from 'ora';
import type { IterationRecord, LoopState } from '../../lambdas/core/schemas/index.js';
import type { Session } from './session.js';
import { iterationLine } from './render.js';

export interface WatchOptions {
  json: boolean;
  /** Human output goes here (stdout by default). */
  write?: (line: string) => void;
}

/**
 * Starts the run's execution (`start`) and prints a live line per iteration (task, gates,
 * commit, duration) while its segments go on in this process, with a spinner between lines
 * on a terminal.
 * Returns every iteration it saw recorded.
 */
export async function watchRun(
  session: Session,
  runId: string,
  start: () => Promise<unknown>,
  options: WatchOptions,
): Promise<IterationRecord[]> {
  const write = options.write ?? ((line: string) => process.stdout.write(`${line}\n`));
  const seen: IterationRecord[] = [];
  const spinner: Ora | undefined =
    !options.json && process.stdout.isTTY ? ora({ discardStdin: false }) : undefined;
  let pending = Promise.resolve();

  session.onStep((event) => {
    const state = (event.output ?? event.input) as Partial<LoopState> | undefined;
    if (state?.runId !== runId) return;
    if (event.state === 'PrepareIteration' && event.output) {
      const iteration = state.iteration;
      pending = pending.then(async () => {
        const record =
          iteration === undefined
            ? undefined
            : await session.stack.deps.runs.getIteration(runId, iteration);
        spinner?.start(
          `iteration ${iteration ?? '?'} · ${record?.taskId ?? ''} ${record?.taskTitle ?? ''} · agent and gates running`,
        );
      });
    }
    if (event.state === 'RecordIteration' && state.iteration !== undefined) {
      const iteration = state.iteration;
      pending = pending.then(async () => {
        const record = await session.stack.deps.runs.getIteration(runId, iteration);
        spinner?.stop();
        if (!record) return;
        seen.push(record);
        if (!options.json) write(iterationLine(record));
      });
    }
  });

  try {
    await start();
    const outcome = await session.stack.executions.waitForRun(runId);
    await pending;
    if (outcome?.status === 'FAILED' && !options.json)
      write(`execution ${outcome.name} failed: ${outcome.error ?? 'unknown error'}`);
    return seen;
  } finally {
    spinner?.stop();
    session.onStep(undefined);
  }
}

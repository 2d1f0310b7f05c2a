import ora, { type Ora } from 'ora';
import type { IterationRecord } from '../../lambdas/core/schemas/records.js';
import type { LoopState } from '../../lambdas/core/schemas/iteration-io.js';
import type { Session } from './session.js';
import { iterationLine } from './render.js';

export interface WatchOptions {
  json: boolean;
  /** Human output goes here (stdout by default). */
  write?: (line: string) => void;
}

/** Steps of an iteration's evaluation that come before AnalyzeGap has written its summary. */
const EVALUATION_STEPS: ReadonlySet<string> = new Set(['JudgeArtefact', 'EvaluateCheap']);

/**
 * Starts the run's execution (`start`) and prints a live line per iteration (task, gates,
 * commit, duration and, when it was evaluated, both modes' figures) while its segments go
 * on in this process, with a spinner between lines on a terminal.
 * An iteration's line waits for its evaluation: it is printed when CollectArtefacts finds
 * nothing to evaluate, when AnalyzeGap has stored the summary, or at the next other step
 * (an evaluation that failed).
 * Returns every iteration it saw done.
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
  /** The iteration recorded whose line is not printed yet. */
  let unprinted: number | undefined;

  const printLine = () => {
    if (unprinted === undefined) return;
    const iteration = unprinted;
    unprinted = undefined;
    pending = pending.then(async () => {
      const record = await session.stack.deps.runs.getIteration(runId, iteration);
      spinner?.stop();
      if (!record) return;
      seen.push(record);
      if (!options.json) write(iterationLine(record));
    });
  };

  /** The spinner for an iteration whose agent and gates are about to run. */
  const announce = (iteration: number | undefined) => {
    pending = pending.then(async () => {
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
    const state = output ?? input;
    if (state?.runId !== runId) return;
    if (event.state === 'RecordIteration' && input?.iteration !== undefined) {
      printLine();
      unprinted = input.iteration;
      // It planned the next iteration too: this one's line is complete, and the next
      // one's agent starts now (no PrepareIteration step).
      if (output?.planned) {
        printLine();
        announce(output.iteration);
      }
      return;
    }
    if (event.state === 'CollectArtefacts' && state.evaluation && !event.error) {
      const { iteration } = state;
      const count = state.evaluation.artefactIds.length;
      pending = pending.then(() => {
        spinner?.start(
          `iteration ${iteration ?? '?'} · evaluating ${count} artefact${count === 1 ? '' : 's'}: judge and cheap mode`,
        );
      });
      return;
    }
    if (EVALUATION_STEPS.has(event.state)) return;
    printLine();
    if (event.state === 'PrepareIteration' && output) announce(output.iteration);
  });

  try {
    await start();
    const outcome = await session.stack.executions.waitForRun(runId);
    printLine();
    await pending;
    if (outcome?.status === 'FAILED' && !options.json)
      write(`execution ${outcome.name} failed: ${outcome.error ?? 'unknown error'}`);
    return seen;
  } finally {
    spinner?.stop();
    session.onStep(undefined);
  }
}

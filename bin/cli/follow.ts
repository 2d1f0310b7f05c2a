/**
 * Following a run that goes on elsewhere (a deployment, `ralph serve`, or another `ralph`
 * process on the same data dir): poll its record and iterations with backoff — fast while
 * things change, slower while they do not — and print each iteration's line once it is
 * recorded, until the run is no longer running.
 */
import { NotFoundError } from '../../lambdas/core/errors.js';
import type { RunRecord } from '../../lambdas/core/schemas/run.js';
import type { RunBackend } from './backend/run-backend.js';
import { CliError } from './errors.js';
import { iterationLine } from './render.js';
import type { LiveOutput } from './live/live-output.js';

export interface FollowOptions {
  /** Human output (suppressed under --json by the caller's choice of writer). */
  write: (line: string) => void;

  /** @default 500 */
  minDelayMs?: number;
  /** @default 5000 */
  maxDelayMs?: number;
  /** How long a submitted run may take to be created (its InitRun to run). @default 60000 */
  startGraceMs?: number;
  /**
   * Called each time the run is seen running (or, undefined, starting), before waiting (may
   * throw to stop).
   */
  whileRunning?: (run: RunRecord | undefined) => Promise<void> | void;
  /**
   * The segment just started (a resume): until the run has reached it, it still reads as it
   * was (paused), which is not an end.
   */
  segment?: number;
  /**
   * `--follow`: the agent's output, printed as it comes (an iteration's all before its
   * line); the iteration after the last one printed may show.
   */
  live?: LiveOutput;
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** Returns the run once it has stopped running (ended, paused). */
export async function followRun(
  backend: RunBackend,
  runId: string,
  options: FollowOptions,
): Promise<RunRecord> {
  const minDelay = options.minDelayMs ?? 500;
  const maxDelay = options.maxDelayMs ?? 5_000;
  const startedAt = Date.now();
  const printed = new Set<number>();
  let delay = minDelay;
  let last = '';
  for (;;) {
    const run = await currentRun(backend, runId, options, startedAt);
    if (!run) await options.whileRunning?.(undefined);
    else {
      const iterations = await backend.listIterations(runId);
      for (const iteration of iterations)
        if (iteration.status === 'recorded' && !printed.has(iteration.iteration)) {
          printed.add(iteration.iteration);
          await options.live?.drain(iteration.iteration);
          options.write(iterationLine(iteration));
        }
      options.live?.allow(Math.max(0, ...printed) + 1);
      const resuming = options.segment !== undefined && run.segment < options.segment;
      if (run.status !== 'running' && !resuming) return run;
      await options.whileRunning?.(run);
      const now = `${run.version}:${iterations.map((it) => `${it.iteration}/${it.version}`).join(',')}`;
      delay = now === last ? Math.min(maxDelay, delay * 2) : minDelay;
      last = now;
    }
    await sleep(delay);
  }
}

/** The run, or undefined while a submitted run is not created yet (within the grace). */
async function currentRun(
  backend: RunBackend,
  runId: string,
  options: FollowOptions,
  startedAt: number,
): Promise<RunRecord | undefined> {
  try {
    return (await backend.showRun(runId)).run;
  } catch (error) {
    const starting =
      (error instanceof NotFoundError || error instanceof CliError) &&
      error.code === 'RUN_STARTING';
    const grace = options.startGraceMs ?? 60_000;
    if (starting && Date.now() - startedAt < grace) return undefined;
    throw error;
  }
}

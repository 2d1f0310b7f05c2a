/**
 * The measured run: the local stack in memory, a temporary git repository whose prd.json
 * has one open story per iteration, no gates, and an agent that only writes one file, so
 * that every iteration passes and commits; a warm-up run on the same stack first.
 */
import { openLocalStack, type LocalStack } from '../../local/local-stack.js';
import { makeGitRepo, makePrd } from '../../test/support/git-repo.js';
import { runToEnd, submitLocalRun, type RunSnapshot } from '../../test/support/local-runs.js';
import { withCleanup } from './cleanup.js';
import { iterationOf, type TimedStep } from './loop-steps.js';
import { probePorts } from './probes.js';
import { samplesOf, type IterationSample } from './samples.js';

/** Does next to nothing, but changes the tree, so that every iteration passes and commits. */
export const AGENT_COMMAND = 'cat > /dev/null; echo x > "iteration-$RALPH_ITERATION.txt"';

export interface RunMeasurement {
  samples: IterationSample[];
  /** The warm-up run's, on the same stack, fresh. */
  coldSamples: IterationSample[];
  /** Event-loop busy time of the measured run, from submission to end, per iteration. */
  mainThreadBusyMs: number;
  steps: TimedStep[];
  runId: string;
  stack: LocalStack;
  repoPath: string;
}

/** What a measured run leaves once its stack is closed. */
export type Measured = Pick<
  RunMeasurement,
  'samples' | 'coldSamples' | 'mainThreadBusyMs' | 'steps'
>;

/**
 * Opens an in-memory stack, runs `warmupIterations` and then `iterations` no-op iterations,
 * each run on a fresh repository, and hands the measurement to `inspect` before the stack
 * closes.
 */
export async function measureRun<T>(
  runIndex: number,
  iterations: number,
  warmupIterations: number,
  inspect: (measurement: RunMeasurement) => Promise<T>,
): Promise<T> {
  const steps: TimedStep[] = [];
  const stack = await openLocalStack({
    retryIntervalMs: 0,
    onStep: (event) => {
      const end = performance.now();
      steps.push({
        state: event.state,
        iteration: iterationOf(event),
        start: end - event.durationMs,
        end,
      });
      if (event.error) process.stderr.write(`  ${event.state} failed: ${event.error}\n`);
    },
  });
  return withCleanup(
    () => stack.close(),
    async () => {
      probePorts(stack);
      const coldSamples =
        warmupIterations > 0
          ? await benchmarkRun(stack, warmupIterations, async ({ snapshot }) =>
              samplesOf(runIndex, steps, snapshot.iterations),
            )
          : [];
      // Both runs number their iterations from 1.
      steps.length = 0;
      return benchmarkRun(stack, iterations, async ({ runId, repoPath, snapshot, busyMs }) => {
        const samples = samplesOf(runIndex, steps, snapshot.iterations);
        const mainThreadBusyMs = busyMs / iterations;
        return inspect({ samples, coldSamples, mainThreadBusyMs, steps, runId, stack, repoPath });
      });
    },
  );
}

interface FinishedRun {
  runId: string;
  repoPath: string;
  snapshot: RunSnapshot;
  /** The event loop's busy time from the run's submission to its end. */
  busyMs: number;
}

/** One run of `iterations` stories on `stack`, in a fresh repository, checked to pass every one. */
async function benchmarkRun<T>(
  stack: LocalStack,
  iterations: number,
  inspect: (run: FinishedRun) => Promise<T>,
): Promise<T> {
  const prd = makePrd(iterations);
  const repo = await makeGitRepo({ 'prd.json': `${JSON.stringify(prd, null, 2)}\n` });
  return withCleanup(repo.cleanup, async () => {
    const loop = performance.eventLoopUtilization();
    const runId = await submitLocalRun(stack, {
      repo: repo.path,
      prd,
      config: {
        agent: { command: AGENT_COMMAND, timeoutSeconds: 60 },
        gates: [],
        limits: {
          maxIterations: iterations,
          iterationsPerSegment: iterations,
          maxConsecutiveFailures: 1000,
        },
      },
    });
    const snapshot = await runToEnd(stack, runId);
    const busyMs = performance.eventLoopUtilization(loop).active;
    assertAllPassed(snapshot, iterations);
    return inspect({ runId, repoPath: repo.path, snapshot, busyMs });
  });
}

/** A run that did not pass every iteration measured something else: the bench stops. */
function assertAllPassed(snapshot: RunSnapshot, iterations: number): void {
  const passed = snapshot.iterations.filter((record) => record.outcome === 'passed');
  if (snapshot.run.status !== 'completed' || passed.length !== iterations)
    throw new Error(
      `the benchmark run did not complete cleanly: status ${snapshot.run.status}` +
        ` (${snapshot.run.stopReason ?? 'no reason'}), ${passed.length} of ${iterations}` +
        ` iterations passed; first other outcome: ${
          snapshot.iterations.find((record) => record.outcome !== 'passed')?.cause ?? '-'
        }`,
    );
}

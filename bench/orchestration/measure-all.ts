/**
 * Every measurement of one bench, in the order it takes them: the engine baseline warmed
 * up, the measured runs (each with its references on the warm stack), then the baselines.
 */
import { engineBaseline, getItemBaseline, type BaselineSample } from './baselines.js';
import { measureRun, type Measured } from './measured-run.js';
import type { Options } from './options.js';
import { referencesOn } from './references.js';

/** No-op-task runs of the engine baseline before it is measured. */
const ENGINE_WARMUP_ITERATIONS = 3;
const GET_ITEM_SAMPLES = 200;

export interface Figures {
  measurements: Measured[];
  getRunTimes: number[];
  gitCalls: { viaServer: number[]; spawnedHere: number[] };
  /** The largest resident set size seen after a measured run, in MiB. */
  rssMb: number;
  baseline: BaselineSample[];
  getItemTimes: number[];
}

/** Takes every measurement; progress goes to `log`. */
export async function measureAll(options: Options, log: (line: string) => void): Promise<Figures> {
  await engineBaseline(ENGINE_WARMUP_ITERATIONS);
  const runs = await measuredRuns(options, log);
  log('baseline: engine with no-op tasks, DynamoDB GetItem…');
  const baseline: BaselineSample[] = [];
  for (let run = 1; run <= options.runs; run += 1)
    baseline.push(...(await engineBaseline(options.iterations)));
  const getItemTimes = await getItemBaseline(GET_ITEM_SAMPLES);
  return { ...runs, baseline, getItemTimes };
}

async function measuredRuns(
  options: Options,
  log: (line: string) => void,
): Promise<Omit<Figures, 'baseline' | 'getItemTimes'>> {
  const measurements: Measured[] = [];
  const getRunTimes: number[] = [];
  const gitCalls = { viaServer: [] as number[], spawnedHere: [] as number[] };
  let rssMb = 0;
  for (let run = 1; run <= options.runs; run += 1) {
    log(
      `measured run ${run}/${options.runs}: a warm-up run of ${options.warmup} iterations, ` +
        `then ${options.iterations}…`,
    );
    const runStarted = performance.now();
    measurements.push(
      await measureRun(run, options.iterations, options.warmup, async (m) => {
        rssMb = Math.max(rssMb, process.memoryUsage().rss / 2 ** 20);
        const references = await referencesOn(m);
        getRunTimes.push(...references.getRunTimes);
        gitCalls.viaServer.push(...references.gitViaServer);
        gitCalls.spawnedHere.push(...references.gitSpawnedHere);
        return {
          samples: m.samples,
          coldSamples: m.coldSamples,
          mainThreadBusyMs: m.mainThreadBusyMs,
          steps: m.steps,
        };
      }),
    );
    log(`  took ${Math.round(performance.now() - runStarted)} ms`);
  }
  return { measurements, getRunTimes, gitCalls, rssMb };
}

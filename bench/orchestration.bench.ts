/**
 * Local orchestration overhead per iteration, agent and gates excluded.
 *
 *   npm run bench:orchestration                 # 1 measured run of 25 iterations, table on stdout
 *   npm run bench:orchestration -- --runs 3     # 3 measured runs, iterations pooled
 *   npm run -s bench:orchestration -- --json    # one JSON document (-s: no npm banner)
 *
 * (`npm run bench` runs every bench; npm would hand flags after `--` to the last one only.)
 *
 * One measured run: the local stack in memory (dynalite, s3rver, aws-local-stepfunctions,
 * handlers and the iteration runner in-process), a temporary git repository whose
 * prd.json has 25 open stories, no gates, and an agent that only writes one file, so that
 * every iteration passes and commits. Before it, a warm-up run on the same stack (a
 * fresh repository; `--warmup`, default 20 iterations), whose own figures are printed as
 * the cold stack. For iteration n:
 *
 *   wall     = end of the iteration's last step − start of its first step: RunAgent(n)
 *              to Advance(n), which records n, decides and plans n + 1 (InitRun plans a
 *              segment's first iteration); a run that evaluates scores it in between
 *   overhead = wall − agentMs − gatesMs            (durations stored with the iteration)
 *   handlers = the Advance step's duration; Advance(n) includes planning n + 1
 *   runner   = RunAgent step duration − agentMs − gatesMs  (claim, git, S3, files)
 *   engine   = overhead − handlers − runner          (transitions, JSONPath, Choice)
 *
 * The baseline, measured in the same process: the same ASL on aws-local-stepfunctions
 * with every Task answering at once, i.e. what the engine alone costs per iteration; and
 * the round trip of one DynamoDB GetItem to dynalite. Port calls (RunStore,
 * ArtefactStore) and subprocesses (git, the agent's shell) are counted and timed to show
 * where the overhead goes.
 *
 * The parts live in bench/orchestration/, one job each: options.ts (the flags),
 * probes.ts (the timing of subprocesses and port calls), loop-steps.ts (which step belongs
 * to which iteration), measured-run.ts, samples.ts, baselines.ts, references.ts,
 * measure-all.ts (every measurement, in order), profile.ts, statistics.ts, summary.ts, the
 * two outputs (table-output.ts, json-output.ts), and cleanup.ts (also on SIGINT).
 */
import '../local/polyfills.js';
import { runBench } from './orchestration/cleanup.js';
import { jsonReport } from './orchestration/json-output.js';
import { measureAll } from './orchestration/measure-all.js';
import { parseOptions } from './orchestration/options.js';
import { probeSubprocesses } from './orchestration/probes.js';
import { summarise } from './orchestration/summary.js';
import { textReport } from './orchestration/table-output.js';

async function main(): Promise<void> {
  const options = parseOptions();
  const log = (line: string) => process.stderr.write(`${line}\n`);
  const started = performance.now();
  probeSubprocesses();
  const summary = summarise(await measureAll(options, log), options);
  process.stdout.write(
    options.json
      ? jsonReport(summary, options, performance.now() - started)
      : textReport(summary, options),
  );
}

runBench(main);

/**
 * The hook intake's cost through the local server: verify, normalise, dedup, answer.
 *
 *   npm run bench:hooks                        # 200 deliveries per path, table on stdout
 *   npm run bench:hooks -- --samples 500 --burst 400 --in-flight 16
 *   npm run -s bench:hooks -- --json           # one JSON document on stdout (-s: no npm banner)
 *
 * The local stack in memory (dynalite and s3rver on their worker thread) with the hooks
 * wired as `ralph serve` wires them: a Sentry client secret in a data dir's hooks.json,
 * project routes saved (their batch window the longest, so no run starts), the whole local
 * API behind `startApiServer` (stage throttle off). Signed Sentry `issue` deliveries, two
 * workloads: new error groups (a group created, its project's batch joined) and repeats of
 * one group (found, counts added). Per workload:
 *
 *   via HTTP    posted to /hooks/sentry over a kept-alive loopback socket, timed until the
 *               answer is read (the server reads it, builds the API Gateway event, calls
 *               the router: the route checks the signature itself, then records it)
 *   in-process  the same router called with the equivalent event: the BASELINE
 *
 * alternating call by call after a warm-up; then a burst with N deliveries in flight on
 * each path (deliveries per second, the main thread's busy time); then where the time goes:
 * deliveries through a router whose ports are timed one call at a time, and the parts that
 * touch no store (hooks.json read, signature check, normalise) timed alone. Targets, over
 * HTTP: p50 ≤ 5 ms one at a time, ≥ 500 deliveries/s in the burst.
 *
 * The parts live in bench/hooks/: options.ts, intake-under-test.ts, deliveries.ts (and
 * sentry-sender.ts), hook-calls.ts (the two paths), measure-sequential.ts, burst.ts,
 * breakdown.ts (and port-timer.ts), summary.ts, report.ts. Alternation is the API bench's;
 * statistics, table style and cleanup are the orchestration bench's.
 */
import '../local/polyfills.js';
import { portProfile, storelessParts } from './hooks/breakdown.js';
import { burst } from './hooks/burst.js';
import { projectsFor, WORKLOADS, type Workload } from './hooks/deliveries.js';
import { deliverInProcess, deliveryTime } from './hooks/hook-calls.js';
import { openIntakeUnderTest, type IntakeUnderTest } from './hooks/intake-under-test.js';
import { measureSequential, samplersFor } from './hooks/measure-sequential.js';
import { parseOptions, type Options } from './hooks/options.js';
import { jsonReport, textReport } from './hooks/report.js';
import { SentrySender } from './hooks/sentry-sender.js';
import { summarise, type WorkloadFigures } from './hooks/summary.js';
import { runBench, withCleanup } from './orchestration/cleanup.js';

const log = (line: string) => process.stderr.write(`${line}\n`);

/** New-group deliveries the whole bench makes: each needs room in its project's batch. */
const newGroupDeliveries = (options: Options) =>
  2 * (options.warmup + options.samples) + options.samples + 3 * options.burst;

async function measureWorkload(
  intake: IntakeUnderTest,
  sender: SentrySender,
  workload: Workload,
  options: Options,
): Promise<WorkloadFigures> {
  log(`${workload}: ${options.warmup} warm-up deliveries, then ${options.samples} each way…`);
  const sequential = await measureSequential(intake, sender, workload, options);
  log(`${workload}: a burst of ${options.burst} per path, ${options.inFlight} in flight…`);
  const [http, inProcess] = samplersFor(intake, sender, workload);
  const bursts = {
    http: await burst(options.burst, options.inFlight, http),
    inProcess: await burst(options.burst, options.inFlight, inProcess),
  };
  log(
    `${workload}: in-process deliveries with their port calls timed, one at a time and in a burst…`,
  );
  const profile = {
    sequential: await portProfile(intake.deps, sender, workload, {
      times: options.samples,
      width: 1,
    }),
    burst: await portProfile(intake.deps, sender, workload, {
      times: options.burst,
      width: options.inFlight,
    }),
  };
  return { workload, sequential, burst: bursts, profile };
}

async function measureAll(intake: IntakeUnderTest, options: Options) {
  const sender = new SentrySender(intake.clientSecret);
  // The repeated group's first delivery creates it (and its batch): untimed.
  deliveryTime(await deliverInProcess(intake.entry, sender.next('repeats')), 'queued');
  const figures: WorkloadFigures[] = [];
  for (const workload of WORKLOADS)
    figures.push(await measureWorkload(intake, sender, workload, options));
  log(`the parts without a store: ${options.samples} deliveries…`);
  const parts = await storelessParts(intake.deps, intake.clientSecret, options.samples);
  return summarise(figures, parts);
}

async function main(): Promise<void> {
  const options = parseOptions();
  const started = performance.now();
  log('opening the local stack in memory, its project routes and the API server…');
  const intake = await openIntakeUnderTest(projectsFor(newGroupDeliveries(options)));
  const summary = await withCleanup(
    () => intake.close(),
    () => measureAll(intake, options),
  );
  process.stdout.write(
    options.json
      ? jsonReport(summary, options, performance.now() - started)
      : textReport(summary, options),
  );
}

runBench(main);

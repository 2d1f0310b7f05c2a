/**
 * The Run API's cost through the local server, and its functions' bundles.
 *
 *   npm run bench:api                        # 200 calls per path, table on stdout
 *   npm run bench:api -- --samples 500
 *   npm run -s bench:api -- --json           # one JSON document on stdout (-s: no npm banner)
 *
 * Latency: the local stack in memory (dynalite and s3rver on their worker thread), the
 * read and start routes behind `startApiServer` (as `ralph serve`, with a fresh
 * credential and the stage throttle out of the way), and a run seeded through
 * `POST /runs` and InitRun. Timed, after a warm-up of every path, the two paths
 * alternating call by call:
 *
 *   via HTTP    the client signs (SigV4, lambdas/adapters/sigv4.ts) and fetches over a
 *               kept-alive loopback socket; the server checks the signature, builds the
 *               API Gateway event and calls the router; timed until the answer is read
 *   in-process  the same router called with the equivalent event (api-event.ts, the same
 *               signed headers), built before the clock starts: the BASELINE
 *
 * for `GET /runs/{id}` and `POST /runs` (until the `202`, without Idempotency-Key), and for
 * reference a path no route takes (the router answers 404 at once: HTTP and signing alone).
 * The start route's execution starter is a counting no-op (bench/api/api-under-test.ts says
 * why), so no run executes. Target: HTTP p50 − in-process p50 ≤ 10 ms for each route.
 *
 * Bundles: every function (the API's five, the loop's eight, the execution watch) bundled with esbuild as CDK does (lib/bundle-settings.ts),
 * the size of each index.mjs (target ≤ 1 MB), and the time a fresh `node` process takes to
 * import it with the functions' environment (dummy values), beside an empty module's.
 *
 * The parts live in bench/api/: options.ts, api-under-test.ts (and counting-starter.ts,
 * start-body.ts), api-calls.ts (the two paths), alternate.ts, measure-latency.ts,
 * bundles.ts (and bundle-composition.ts), import-time.ts, summary.ts, report.ts. Statistics, table style and cleanup
 * are the orchestration bench's.
 */
import '../local/polyfills.js';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { openApiUnderTest } from './api/api-under-test.js';
import { bundleFunctions } from './api/bundles.js';
import { emptyModule, importTimes } from './api/import-time.js';
import { measureLatency, type LatencyFigures } from './api/measure-latency.js';
import { parseOptions, type Options } from './api/options.js';
import { jsonReport, textReport } from './api/report.js';
import { routeSummary, summarise, type BundleFigures } from './api/summary.js';
import { runBench, withCleanup } from './orchestration/cleanup.js';

const log = (line: string) => process.stderr.write(`${line}\n`);

async function latency(options: Options): Promise<LatencyFigures> {
  log('opening the local stack in memory and the API server…');
  const api = await openApiUnderTest();
  return withCleanup(
    () => api.close(),
    () => measureLatency(api, options, log),
  );
}

async function bundles(options: Options): Promise<BundleFigures> {
  const dir = await mkdtemp(join(tmpdir(), 'ralph-bench-api-'));
  return withCleanup(
    () => rm(dir, { recursive: true, force: true }),
    async () => {
      log('bundling every function…');
      const built = await bundleFunctions(dir);
      log(`importing each in ${options.imports} fresh node processes…`);
      const baselineImportMs = await importTimes(await emptyModule(dir), options.imports);
      const withImports = [];
      for (const bundle of built)
        withImports.push({ ...bundle, importMs: await importTimes(bundle.file, options.imports) });
      return { bundles: withImports, baselineImportMs };
    },
  );
}

async function main(): Promise<void> {
  const options = parseOptions();
  const started = performance.now();
  const figures = await latency(options);
  const summary = summarise(
    [
      routeSummary('GET /runs/{id}', figures.getRun),
      routeSummary('POST /runs', figures.startRun),
      routeSummary('no route (404)', figures.noRoute, false),
    ],
    await bundles(options),
  );
  process.stdout.write(
    options.json
      ? jsonReport(summary, figures, options, performance.now() - started)
      : textReport(summary, figures, options),
  );
}

runBench(main);

/**
 * The latency figures: `GET /runs/{id}` and `POST /runs` (until the `202`), each through the
 * local server and in-process, alternately, after a warm-up of every path; and, for
 * reference, a path no route takes, which isolates what HTTP and signing cost.
 */
import { RunStartedSchema } from '../../lambdas/core/schemas/run-views.js';
import { initRun } from '../../lambdas/core/steps/init-run.js';
import { inProcess, timeOf, viaHttp, type ApiCall } from './api-calls.js';
import type { ApiUnderTest } from './api-under-test.js';
import { alternately, type Sampler } from './alternate.js';
import type { Options } from './options.js';
import { START_BODY } from './start-body.js';

/** One route's timings, in ms. */
export interface PathTimes {
  http: number[];
  inProcess: number[];
}

export interface LatencyFigures {
  /** A path no route takes: the router answers `404` at once, no store call. */
  noRoute: PathTimes;
  getRun: PathTimes;
  startRun: PathTimes;
  /** The run `GET /runs/{id}` reads. */
  runId: string;
  /** Executions the starter was asked for: one per `202`, none run. */
  starts: number;
}

/** The HTTP and signing path alone: the router refuses it before any handler or store. */
const NO_ROUTE: ApiCall = { method: 'GET', path: '/bench/no-such-route', status: 404 };

const START_RUN: ApiCall = {
  method: 'POST',
  path: '/runs',
  body: JSON.stringify(START_BODY),
  status: 202,
};

/** Seeds the run, warms every path up, then times each route both ways. */
export async function measureLatency(
  api: ApiUnderTest,
  options: Options,
  log: (line: string) => void,
): Promise<LatencyFigures> {
  const runId = await seedRun(api);
  const getRun: ApiCall = { method: 'GET', path: `/runs/${runId}`, status: 200 };
  const samplers = (call: ApiCall): [Sampler, Sampler] => [
    async () => timeOf(call, await viaHttp(api, call)),
    async () => timeOf(call, await inProcess(api, api.entry, call)),
  ];
  log(`warm-up: ${options.warmup} calls of each path…`);
  for (const call of [NO_ROUTE, getRun, START_RUN])
    await alternately(options.warmup, samplers(call));
  log(`a path no route takes: ${options.samples} calls each way…`);
  const [noRouteHttp, noRouteInProcess] = await alternately(options.samples, samplers(NO_ROUTE));
  log(`GET /runs/{id}: ${options.samples} calls each way…`);
  const [getHttp, getInProcess] = await alternately(options.samples, samplers(getRun));
  log(`POST /runs: ${options.samples} calls each way…`);
  const [startHttp, startInProcess] = await alternately(options.samples, samplers(START_RUN));
  const starts = api.starter.started.length;
  const posted = 1 + 2 * (options.warmup + options.samples);
  if (starts !== posted)
    throw new Error(`${posted} POST /runs answered 202, but the starter saw ${starts} starts`);
  return {
    noRoute: { http: noRouteHttp, inProcess: noRouteInProcess },
    getRun: { http: getHttp, inProcess: getInProcess },
    startRun: { http: startHttp, inProcess: startInProcess },
    runId,
    starts,
  };
}

/**
 * A run to read: started through the server (which checks that path end to end), then
 * created by InitRun — the state machine's first step, called here as the no-op starter
 * does not run it — so `GET /runs/{id}` reads what it reads of a real run that has
 * started: the run record, its stories, its first iteration planned.
 */
async function seedRun(api: ApiUnderTest): Promise<string> {
  const answer = await viaHttp(api, START_RUN);
  timeOf(START_RUN, answer);
  const { runId, segment } = RunStartedSchema.parse(JSON.parse(answer.body));
  await initRun(api.deps, { runId, segment });
  return runId;
}

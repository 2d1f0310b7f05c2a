/**
 * What a dashboard view shows, read from the store: the runs in view, whether any of them
 * is still going (the page refreshes while one is), and every chart over their samples.
 */
import type { RunRecord } from '../../../lambdas/core/schemas/run.js';
import type { RunBackend } from '../backend/run-backend.js';
import { dashboardCharts, type ChartData } from './chart-data.js';
import { runSamples, type StoredRun } from './run-points.js';

/** Every run, one run, or one project's runs (by its id or its name). */
export type DashboardView =
  { kind: 'all' } | { kind: 'run'; runId: string } | { kind: 'project'; project: string };

export interface RunSummary {
  runId: string;
  project: string;
  status: RunRecord['status'];
  iterations: number;
  storiesPassed: number;
  storiesTotal: number;
  createdAt: string;
  endedAt?: string;
}

export interface DashboardData {
  view: DashboardView;
  title: string;
  /** A run in view is going on in a live process: the page polls again. */
  live: boolean;
  runs: RunSummary[];
  charts: ChartData[];
}

/** More than a person reads on one page; the newest are kept. */
const MOST_RUNS = 500;
const PAGE = 100;

/** The runs a view shows, with their iterations. */
export async function storedRuns(backend: RunBackend, view: DashboardView): Promise<StoredRun[]> {
  const runs =
    view.kind === 'run'
      ? [(await backend.showRun(view.runId)).run]
      : await runsInView(backend, view);
  return Promise.all(
    runs.map(async (run) => ({ run, iterations: await backend.listIterations(run.runId) })),
  );
}

/** `stored`: the view's runs when already read (storedRuns). */
export async function dashboardData(
  backend: RunBackend,
  view: DashboardView,
  stored?: readonly StoredRun[],
): Promise<DashboardData> {
  stored ??= await storedRuns(backend, view);
  const running = stored.map(({ run }) => run).filter((run) => run.status === 'running');
  const interrupted = await backend.interruptedRuns(running);
  return {
    view,
    title: titleOf(view),
    live: running.some((run) => !interrupted.has(run.runId)),
    runs: stored.map(summaryOf),
    charts: dashboardCharts(stored.flatMap(runSamples), view.kind === 'run' ? 'iteration' : 'time'),
  };
}

async function runsInView(
  backend: RunBackend,
  view: Exclude<DashboardView, { kind: 'run' }>,
): Promise<RunRecord[]> {
  const runs: RunRecord[] = [];
  let cursor: string | undefined;
  do {
    const page = await backend.listRuns({ limit: PAGE, ...(cursor ? { cursor } : {}) });
    runs.push(
      ...page.runs.filter(
        (run) =>
          view.kind === 'all' || run.projectId === view.project || run.project === view.project,
      ),
    );
    cursor = page.nextCursor;
  } while (cursor && runs.length < MOST_RUNS);
  return runs.slice(0, MOST_RUNS);
}

function titleOf(view: DashboardView): string {
  if (view.kind === 'run') return `run ${view.runId}`;
  if (view.kind === 'project') return `project ${view.project}`;
  return 'all runs';
}

function summaryOf({ run, iterations }: StoredRun): RunSummary {
  return {
    runId: run.runId,
    project: run.project || run.projectId,
    status: run.status,
    iterations: iterations.filter((record) => record.outcome !== undefined).length,
    storiesPassed: run.storiesPassed,
    storiesTotal: run.storiesTotal,
    createdAt: run.createdAt,
    ...(run.endedAt ? { endedAt: run.endedAt } : {}),
  };
}

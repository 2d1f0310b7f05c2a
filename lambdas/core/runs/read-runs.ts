import { InvalidInputError, NotFoundError, RunStartingError } from '../errors.js';
import type { RunRecord } from '../schemas/run.js';
import {
  ITERATION_ARTEFACTS,
  RUN_ARTEFACTS,
  artefactKeys,
  type IterationArtefact,
  type RunArtefact,
} from '../shared/artefact-keys.js';
import { parseJsonText, parseOrThrow } from '../shared/validation.js';
import type { IterationRecord } from '../schemas/iteration.js';
import {
  IdSegmentSchema,
  RunsQuerySchema,
  type IterationList,
  type IterationView,
  type RunsPage,
  type RunView,
} from '../schemas/run-views.js';
import type { LoopDeps } from '../steps/deps.js';
import { loadIteration, loadRun } from '../steps/load.js';
import { readOptionalText } from '../shared/optional-document.js';
import { artefactLink, runLinks } from './links.js';

type ReadDeps = Pick<LoopDeps, 'runs' | 'artefacts'>;

/** A run id from a path or a command line, refused before any read when it cannot be one. */
export function parseRunId(value: string): string {
  return parseOrThrow(IdSegmentSchema, value, 'run id');
}

/** An iteration number from a path: a positive whole number. */
export function parseIterationNumber(value: string): number {
  const number = Number(value);
  if (!/^\d+$/.test(value) || !Number.isSafeInteger(number) || number < 1)
    throw new InvalidInputError('iteration', [`iteration: "${value}" is not a positive number`]);
  return number;
}

/** A page of runs, newest first (`status`, `limit`, `cursor` as in RunsQuerySchema). */
export async function listRuns(deps: ReadDeps, query: unknown): Promise<RunsPage> {
  const { status, limit, cursor } = parseOrThrow(RunsQuerySchema, query, 'query');
  return deps.runs.listRuns({ limit, status, cursor });
}

/** The run; a submitted one that InitRun has not created yet is RunStartingError. */
async function loadSubmittedRun(deps: ReadDeps, runId: string): Promise<RunRecord> {
  const id = parseRunId(runId);
  const run = await deps.runs.getRun(id);
  if (run) return run;
  if (await deps.artefacts.exists(artefactKeys.request(id))) throw new RunStartingError(id);
  throw new NotFoundError(`run ${id} does not exist`);
}

/** The run and its stories. */
export async function showRun(deps: ReadDeps, runId: string): Promise<RunView> {
  const run = await loadSubmittedRun(deps, runId);
  const stories = await deps.runs.listTasks(run.runId);
  return { run, stories, links: runLinks(run.runId) };
}

/** Every iteration of a run, in order (404 when there is no such run). */
export async function listIterations(deps: ReadDeps, runId: string): Promise<IterationList> {
  const run = await loadSubmittedRun(deps, runId);
  return { iterations: await deps.runs.listIterations(run.runId) };
}

/** One iteration: its record, the artefacts it wrote, and its evaluation log when it has one. */
export async function showIteration(
  deps: ReadDeps,
  runId: string,
  iterationNumber: number,
): Promise<IterationView> {
  const iteration = await loadIteration(deps.runs, parseRunId(runId), iterationNumber);
  const artefacts = Object.fromEntries(
    (await artefactNames(deps, iteration)).map((name) => [
      name,
      artefactLink(runId, iterationNumber, name),
    ]),
  );
  const summary = iteration.evaluation;
  if (!summary) return { iteration, artefacts };
  const text = await readOptionalText(deps.artefacts, summary.logKey);
  return {
    iteration,
    artefacts,
    evaluation: { summary, log: text === undefined ? null : parseJsonText(text, summary.logKey) },
  };
}

/**
 * The names of the files stored for an iteration (`plan.json`, `prompt.md`, `diff.patch`,
 * …): those its record lists, and those the steps write beside it (the plan, the result,
 * the evaluation's), looked up in the store.
 */
export async function artefactNames(deps: ReadDeps, iteration: IterationRecord): Promise<string[]> {
  const stored = await Promise.all(
    ITERATION_ARTEFACTS.map((name) => isStored(deps, iteration, name)),
  );
  return ITERATION_ARTEFACTS.filter((_, index) => stored[index]);
}

/** Whether an artefact of the iteration exists: listed on its record, else in the store. */
async function isStored(
  deps: ReadDeps,
  iteration: IterationRecord,
  name: IterationArtefact,
): Promise<boolean> {
  const key = artefactKeys.iteration(iteration.runId, iteration.iteration, name);
  return Object.values(iteration.artefacts).includes(key) || deps.artefacts.exists(key);
}

/**
 * The storage key of one artefact of an iteration. A name that is not a file name is bad
 * input; a file the iteration did not write is not found — only the iteration's own
 * artefacts are ever handed out, whatever the name says.
 */
export async function artefactKey(
  deps: ReadDeps,
  runId: string,
  iterationNumber: number,
  name: string,
): Promise<string> {
  parseOrThrow(IdSegmentSchema, name, 'artefact name');
  const iteration = await loadIteration(deps.runs, parseRunId(runId), iterationNumber);
  // One lookup for the name asked for; the whole list only to say what there is instead.
  const known = (ITERATION_ARTEFACTS as readonly string[]).includes(name);
  if (!known || !(await isStored(deps, iteration, name as IterationArtefact))) {
    const names = await artefactNames(deps, iteration);
    throw new NotFoundError(
      `iteration ${iterationNumber} of run ${runId} has no artefact "${name}" (it has: ${names.join(', ') || 'none'})`,
    );
  }
  return artefactKeys.iteration(runId, iterationNumber, name as IterationArtefact);
}

/**
 * The key of one artefact of an iteration, once its bytes are read and found as they were
 * written (the store checks the digest kept with them; ArtefactDamagedError otherwise): a
 * URL to it is handed out only for an artefact that can be trusted.
 */
export async function verifiedArtefactKey(
  deps: ReadDeps,
  runId: string,
  iterationNumber: number,
  name: string,
): Promise<string> {
  const key = await artefactKey(deps, runId, iterationNumber, name);
  await deps.artefacts.getText(key);
  return key;
}

/**
 * The key of one of the run's own artefacts (RUN_ARTEFACTS: `summary.json`,
 * `investigation-report.json`, …), once its bytes are read and found as they were written.
 * Another name is bad input; one the run has not written (yet) is not found.
 */
export async function verifiedRunArtefactKey(
  deps: ReadDeps,
  runId: string,
  name: string,
): Promise<string> {
  if (!(RUN_ARTEFACTS as readonly string[]).includes(name))
    throw new InvalidInputError('artefact name', [
      `name: "${name}" is not one of the run's artefacts (${RUN_ARTEFACTS.join(', ')})`,
    ]);
  const run = await loadRun(deps.runs, parseRunId(runId));
  const key = artefactKeys.runArtefact(run.runId, name as RunArtefact);
  if ((await readOptionalText(deps.artefacts, key)) === undefined)
    throw new NotFoundError(`run ${run.runId} has no ${name} (yet)`);
  return key;
}

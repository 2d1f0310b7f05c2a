import { parseOrThrow } from '../shared/validation.js';
import { StartRunBodySchema, type RunStarted } from '../schemas/run-views.js';
import type { SubmitDeps } from '../steps/deps.js';
import { submitRun } from '../steps/lifecycle.js';
import { runLinks } from './links.js';
import { repoRefOf } from './repo-ref.js';

export interface StartRunDeps extends SubmitDeps {
  /** A fresh run id (time-sortable, random: see newRunId). */
  newRunId(): string;
}

/** A start request, parsed: what `startParsedRun` takes after validation. */
export type ParsedStartRun = ReturnType<typeof parseStartRun>;

/**
 * Checks a start request before anything is written: the body against its schema (the zod
 * paths say where: `prd.userStories[2].acceptanceCriteria: expected array`) and the repo
 * against what this deployment can reach.
 */
export function parseStartRun(body: unknown, options: { allowLocalRepos: boolean }) {
  const parsed = parseOrThrow(StartRunBodySchema, body, 'request body');
  return { ...parsed, repoRef: repoRefOf(parsed.repo, { allowLocal: options.allowLocalRepos }) };
}

/** Stores the request and starts segment 1 (`202`: InitRun creates the run shortly after). */
export async function startParsedRun(
  deps: StartRunDeps,
  request: ParsedStartRun,
): Promise<RunStarted> {
  const runId = deps.newRunId();
  const { executionId } = await submitRun(deps, {
    runId,
    repo: request.repoRef,
    prdPath: 'prd.json',
    prd: request.prd,
    config: request.config ?? {},
    ...(request.project === undefined ? {} : { projectId: request.project }),
  });
  return { runId, segment: 1, executionId, links: runLinks(runId) };
}

import { InvalidInputError } from '../errors.js';
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
  const repoRef = repoRefOf(parsed.repo, { allowLocal: options.allowLocalRepos });
  const prdPath = parsed.prdPath ?? 'prd.json';
  // A clone has only its own files; a local working copy may keep prd.json elsewhere.
  const outside = prdPath.startsWith('/') || prdPath.split('/').includes('..');
  if (outside && repoRef.kind !== 'local')
    throw new InvalidInputError('request body', [
      `prdPath: "${prdPath}" is not a path inside the repository (e.g. scripts/ralph/prd.json)`,
    ]);
  return { ...parsed, repoRef, prdPath };
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
    prdPath: request.prdPath,
    prd: request.prd,
    config: request.config ?? {},
    ...(request.project === undefined ? {} : { projectId: request.project }),
  });
  return { runId, segment: 1, executionId, links: runLinks(runId) };
}

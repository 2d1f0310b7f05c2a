import { InvalidInputError } from './errors.js';

/**
 * The one S3 key scheme. Every artefact key is built here and nowhere else, so the layout
 * in docs/data-model.md stays true.
 */

/** The files one iteration may write under `runs/{runId}/iterations/{n}/`. */
export const ITERATION_ARTEFACTS = [
  'plan.json',
  'prompt.md',
  'transcript.jsonl',
  'diff.patch',
  'gates.json',
  'result.json',
  'expensive.json',
  'cheap.json',
  'gap.json',
  'log.json',
] as const;
export type IterationArtefact = (typeof ITERATION_ARTEFACTS)[number];

const SAFE_SEGMENT = /^[A-Za-z0-9][A-Za-z0-9._-]*$/;

function segment(value: string, what: string): string {
  if (!SAFE_SEGMENT.test(value))
    throw new InvalidInputError('artefact key', [`${what}: "${value}" is unsafe in an S3 key`]);
  return value;
}

export const artefactKeys = {
  request: (runId: string) => `runs/${segment(runId, 'run id')}/request.json`,
  manifest: (runId: string) => `runs/${segment(runId, 'run id')}/manifest.json`,
  summary: (runId: string) => `runs/${segment(runId, 'run id')}/summary.json`,
  iteration: (runId: string, iteration: number, name: IterationArtefact) =>
    `runs/${segment(runId, 'run id')}/iterations/${iteration}/${name}`,
  /** Progress entries moved out of `progress.txt` by the periodic archive. */
  progressArchive: (runId: string, iteration: number) =>
    `runs/${segment(runId, 'run id')}/progress-archive/${iteration}.txt`,
  patternSet: (projectId: string, version: number) =>
    `projects/${segment(projectId, 'project id')}/patterns/v${version}.json`,
} as const;

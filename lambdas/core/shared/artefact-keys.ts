import { InvalidInputError } from '../errors.js';

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
  'suite.json',
  'result.json',
  'expensive.json',
  'cheap.json',
  'gap.json',
  'log.json',
  'investigation.json',
  'pull-request.json',
] as const;
export type IterationArtefact = (typeof ITERATION_ARTEFACTS)[number];

/** The files a run writes once under `runs/{runId}/`, each readable by name. */
export const RUN_ARTEFACTS = [
  'request.json',
  'manifest.json',
  'summary.json',
  'convergence-proof.json',
  'investigation-report.json',
  'learning-snapshot.json',
  'learning-report.json',
] as const;
export type RunArtefact = (typeof RUN_ARTEFACTS)[number];

const SAFE_SEGMENT = /^[A-Za-z0-9][A-Za-z0-9._-]*$/;

function segment(value: string, what: string): string {
  if (!SAFE_SEGMENT.test(value))
    throw new InvalidInputError('artefact key', [`${what}: "${value}" is unsafe in an S3 key`]);
  return value;
}

export const artefactKeys = {
  /** The folder of everything a run wrote: what pruning the run deletes. */
  run: (runId: string) => `runs/${segment(runId, 'run id')}/`,
  request: (runId: string) => `runs/${segment(runId, 'run id')}/request.json`,
  manifest: (runId: string) => `runs/${segment(runId, 'run id')}/manifest.json`,
  summary: (runId: string) => `runs/${segment(runId, 'run id')}/summary.json`,
  /** One of RUN_ARTEFACTS by name (the same keys as `request`, `manifest`...). */
  runArtefact: (runId: string, name: RunArtefact) => `runs/${segment(runId, 'run id')}/${name}`,
  iteration: (runId: string, iteration: number, name: IterationArtefact) =>
    `runs/${segment(runId, 'run id')}/iterations/${iteration}/${name}`,
  /** Progress entries moved out of `progress.txt` by the periodic archive. */
  progressArchive: (runId: string, iteration: number) =>
    `runs/${segment(runId, 'run id')}/progress-archive/${iteration}.txt`,
  /** An artefact both evaluation modes score (the change, or a suite's document). */
  evaluationArtefact: (runId: string, iteration: number, artefactId: string) =>
    `runs/${segment(runId, 'run id')}/iterations/${iteration}/artefacts/${segment(artefactId, 'artefact id')}.json`,
  /** The judge's verdict on one artefact (one Map item's output). */
  judgeResult: (runId: string, iteration: number, artefactId: string) =>
    `runs/${segment(runId, 'run id')}/iterations/${iteration}/expensive/${segment(artefactId, 'artefact id')}.json`,
  /** An answer the judge gave that could not be used, kept as evidence. */
  judgeRawAnswer: (runId: string, iteration: number, artefactId: string, run: number) =>
    `runs/${segment(runId, 'run id')}/iterations/${iteration}/expensive/${segment(artefactId, 'artefact id')}.raw-${run}.txt`,
  /** An investigate run's error group, as it was when its batch closed (the task's input). */
  errorGroup: (runId: string, taskId: string) =>
    `runs/${segment(runId, 'run id')}/errors/${segment(taskId, 'task id')}.json`,
  /** Written once, when the run converges. */
  convergenceProof: (runId: string) => `runs/${segment(runId, 'run id')}/convergence-proof.json`,
  patternSet: (projectId: string, version: number) =>
    `projects/${segment(projectId, 'project id')}/patterns/v${version}.json`,
  /**
   * A registry pattern's body when it is too large for its item: one per version and
   * content (`digest`, of the body's bytes), so that a body a save left behind when it lost
   * its race or stopped half-way never blocks another save of that version (write-once).
   */
  registryBody: (scope: string, patternId: string, version: number, digest: string) =>
    `registry/${scopeFolder(scope)}/patterns/${segment(patternId, 'pattern id')}/v${version}-${segment(digest, 'body digest')}.json`,
  /** A pruned registry pattern, as it was when it went (written once, never deleted). */
  registryArchive: (scope: string, patternId: string, archivedAt: string) =>
    `registry/archive/${scopeFolder(scope)}/${segment(patternId, 'pattern id')}/${archivedAt.replace(/[^0-9]/g, '').slice(0, 17)}.json`,
} as const;

/** `org` → `org`, `project:<id>` → `projects/<id>`: a registry scope as a key folder. */
function scopeFolder(scope: string): string {
  if (scope === 'org') return 'org';
  const projectId = scope.startsWith('project:') ? scope.slice('project:'.length) : '';
  return `projects/${segment(projectId, 'registry scope')}`;
}

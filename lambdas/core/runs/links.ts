import type { RunLinks } from '../schemas/run-views.js';

/** The API paths of a run, relative to the API's base URL. */
export function runLinks(runId: string): RunLinks {
  const self = `/runs/${encodeURIComponent(runId)}`;
  return {
    self,
    iterations: `${self}/iterations`,
    cancel: `${self}/cancel`,
    resume: `${self}/resume`,
  };
}

/** The API path that redirects to one artefact of an iteration. */
export function artefactLink(runId: string, iteration: number, name: string): string {
  return `${runLinks(runId).iterations}/${iteration}/artefacts/${encodeURIComponent(name)}`;
}

/** The API path that redirects to one of the run's own artefacts (`summary.json`, …). */
export function runArtefactLink(runId: string, name: string): string {
  return `${runLinks(runId).self}/artefacts/${encodeURIComponent(name)}`;
}

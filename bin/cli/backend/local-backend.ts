import {
  artefactKey,
  listIterations,
  listRuns,
  showIteration,
  showRun,
} from '../../../lambdas/core/runs/read-runs.js';
import { requestCancel } from '../../../lambdas/core/steps/lifecycle.js';
import type { LocalStack } from '../../../local/local-stack.js';
import type { RunBackend } from './run-backend.js';

/** `--data-dir`'s default (program.ts). */
export const DEFAULT_DATA_DIR = '.ralph';

/** A path as one shell word: quoted when it holds anything but safe characters. */
function shellWord(text: string): string {
  return /^[\w./@%+=:,-]+$/.test(text) ? text : `'${text.replace(/'/g, `'\\''`)}'`;
}

/**
 * The local stack of the data dir, through the same run commands the API's handlers call.
 * Only the process that owns the store runs executions: when that is this one, a run stored
 * as running has no execution left, so a cancel ends it at once.
 */
export function localBackend(stack: LocalStack, dataDir = DEFAULT_DATA_DIR): RunBackend {
  const { deps } = stack;
  // Suggested commands must work as printed: with the data dir the person gave.
  const flags = dataDir === DEFAULT_DATA_DIR ? '' : ` --data-dir ${shellWord(dataDir)}`;
  return {
    label: 'local stack',
    interruptedRuns: async (runs) => {
      const running = runs.filter((run) => run.status === 'running');
      const live = await Promise.all(running.map((run) => stack.isRunLive(run.runId)));
      return new Set(running.filter((_, index) => !live[index]).map((run) => run.runId));
    },
    flags,
    listRuns: (query) => listRuns(deps, query),
    showRun: (runId) => showRun(deps, runId),
    listIterations: async (runId) => (await listIterations(deps, runId)).iterations,
    showIteration: (runId, iteration) => showIteration(deps, runId, iteration),
    readArtefact: async (runId, iteration, name) =>
      deps.artefacts.getText(await artefactKey(deps, runId, iteration, name)),
    // A run no process runs has nobody to hear the request: it is cancelled at once.
    cancel: async (runId) =>
      requestCancel(deps, runId, { noLiveExecution: !(await stack.isRunLive(runId)) }),
    // An iteration's artefact as the command that shows it; anything else where it lies.
    describeArtefact: (key) => {
      const artefact = /^runs\/([^/]+)\/iterations\/(\d+)\/([^/]+)$/.exec(key);
      return artefact
        ? `ralph show ${artefact[1]} --iteration ${artefact[2]} --artefact ${artefact[3]}${flags}`
        : stack.describeArtefact(key);
    },
  };
}

import {
  artefactKey,
  listIterations,
  listRuns,
  showIteration,
  showRun,
} from '../../../lambdas/core/runs/read-runs.js';
import { artefactKeys, RUN_ARTEFACTS } from '../../../lambdas/core/shared/artefact-keys.js';
import { requestCancel } from '../../../lambdas/core/steps/lifecycle.js';
import type { LocalStack } from '../../../local/local-stack.js';
import type { RunBackend } from './run-backend.js';

/**
 * The local stack of the data dir, `flags` being what a suggested command needs to reach it
 * again (session.ts), through the same run commands the API's handlers call.
 * Only the process that owns the store runs executions: when that is this one, a run stored
 * as running has no execution left, so a cancel ends it at once.
 */
export function localBackend(stack: LocalStack, flags = ''): RunBackend {
  const { deps } = stack;
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
    readRunArtefact: (runId, name) => deps.artefacts.getText(artefactKeys.runArtefact(runId, name)),
    // A run no process runs has nobody to hear the request: it is cancelled at once.
    cancel: async (runId) =>
      requestCancel(deps, runId, { noLiveExecution: !(await stack.isRunLive(runId)) }),
    // An artefact as the command that shows it (the emulator's files are its own format);
    // anything else where it lies.
    describeArtefact: (key) => {
      const artefact = /^runs\/([^/]+)\/iterations\/(\d+)\/([^/]+)$/.exec(key);
      if (artefact)
        return `ralph show ${artefact[1]} --iteration ${artefact[2]} --artefact ${artefact[3]}${flags}`;
      const ofRun = /^runs\/([^/]+)\/([^/]*)$/.exec(key);
      if (ofRun && (RUN_ARTEFACTS as readonly string[]).includes(ofRun[2]!))
        return `ralph show ${ofRun[1]} --artefact ${ofRun[2]}${flags}`;
      if (ofRun && ofRun[2] === '')
        return `ralph show ${ofRun[1]} --artefact NAME${flags} (${RUN_ARTEFACTS.join(', ')}), and --iteration N --artefact NAME for an iteration's`;
      return stack.describeArtefact(key);
    },
  };
}

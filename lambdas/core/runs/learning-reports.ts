/**
 * A run's and a project's learning reports: what each run's end learned
 * (`learning-report.json`), and the effect of injection over every run of a project, its
 * tasks pooled (with injection, the control share, nothing to inject) and compared.
 */
import type { ArtefactStore, RunStore } from '../../ports.js';
import { effectReport } from '../learning/effect-report.js';
import {
  RunLearningReportSchema,
  type EffectReport,
  type RunLearningReport,
} from '../schemas/learning.js';
import { artefactKeys } from '../shared/artefact-keys.js';
import { readOptionalDocument } from '../shared/optional-document.js';

export interface LearningReportDeps {
  runs: RunStore;
  artefacts: ArtefactStore;
}

/** Runs read per page while looking for a project's. */
const PAGE = 100;

/** The run's report; undefined while it has none (still running, or learning was off). */
export async function runLearningReport(
  deps: LearningReportDeps,
  runId: string,
): Promise<RunLearningReport | undefined> {
  return readOptionalDocument(
    deps.artefacts,
    artefactKeys.runArtefact(runId, 'learning-report.json'),
    RunLearningReportSchema,
  );
}

/**
 * Every ended run of the project, its tasks pooled into one comparison.
 *
 * @example
 * (await projectLearningReport(deps, 'shop')).conclusion;
 * // 'too few tasks to conclude: 4 with injection, 1 control (at least 5 each)'
 */
export async function projectLearningReport(
  deps: LearningReportDeps,
  projectId: string,
): Promise<EffectReport & { runs: number }> {
  const runIds: string[] = [];
  let cursor: string | undefined;
  do {
    const page = await deps.runs.listRuns({ limit: PAGE, ...(cursor ? { cursor } : {}) });
    for (const run of page.runs) if (run.projectId === projectId) runIds.push(run.runId);
    cursor = page.nextCursor;
  } while (cursor);
  const reports = (await Promise.all(runIds.map((runId) => runLearningReport(deps, runId)))).filter(
    (report) => report !== undefined,
  );
  const tasks = reports.flatMap((report) => report.effect.tasks);
  return { ...effectReport(`project ${projectId}`, tasks), runs: reports.length };
}

import type { IterationRecord } from '../../../lambdas/core/schemas/iteration.js';
import type { RunRecord } from '../../../lambdas/core/schemas/run.js';
import type { RunArtefact } from '../../../lambdas/core/shared/artefact-keys.js';
import type {
  IterationView,
  ResumeRunBody,
  RunStarted,
  RunsPage,
  RunView,
  StartRunBody,
} from '../../../lambdas/core/schemas/run-views.js';

/**
 * Where the CLI's run commands act: the local stack of the data dir, or a Run API
 * (`--endpoint`). Both answer with the same models (the API's), so each command is written
 * once and prints the same in either mode.
 */
export interface RunBackend {
  /** `local stack`, or `API <endpoint>`: what the first line of a run names. */
  readonly label: string;
  /**
   * Those of `runs` stored as running that nothing runs any more: locally, runs whose ralph
   * process is gone (killed, or its machine restarted). A deployment's runs are never.
   */
  interruptedRuns(runs: readonly RunRecord[]): Promise<ReadonlySet<string>>;
  /** What a command needs to reach this backend again: `` or ` --endpoint <url>`. */
  readonly flags: string;
  listRuns(query: { status?: string; limit: number; cursor?: string }): Promise<RunsPage>;
  showRun(runId: string): Promise<RunView>;
  listIterations(runId: string): Promise<IterationRecord[]>;
  showIteration(runId: string, iteration: number): Promise<IterationView>;
  /** The text of one artefact of an iteration. */
  readArtefact(runId: string, iteration: number, name: string): Promise<string>;
  /** The text of one of the run's own artefacts (RUN_ARTEFACTS: summary.json, …). */
  readRunArtefact(runId: string, name: RunArtefact): Promise<string>;
  cancel(runId: string): Promise<RunRecord>;
  /** Where a person finds an artefact (a file path, an s3:// URI or an API path). */
  describeArtefact(key: string): string;
}

/**
 * A Run API also starts and resumes runs, which then go on in the deployment (or in
 * `ralph serve`); locally, `ralph run` and `ralph resume` run them in their own process.
 */
export interface RemoteRunBackend extends RunBackend {
  start(body: StartRunBody): Promise<RunStarted>;
  resume(runId: string, body?: ResumeRunBody): Promise<RunStarted>;
}

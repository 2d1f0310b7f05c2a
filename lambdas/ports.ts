/**
 * The interfaces the core needs from the outside world, in domain terms. Adapters in
 * `lambdas/adapters/` implement them over AWS; tests and the local stack use the same
 * adapters against emulators.
 */
import type { RunRecord } from './core/schemas/run.js';
import type { IterationRecord } from './core/schemas/iteration.js';
import type { TaskRecord } from './core/schemas/task.js';

export interface Clock {
  now(): Date;
}

export interface ListRunsOptions {
  limit?: number;
}

/**
 * Run, iteration and task records. Every write of an existing record is conditional on
 * the version the caller read (`expectedVersion`); the stored version becomes
 * `expectedVersion + 1`. A lost race throws `VersionConflictError`. A write the SDK retried
 * after a lost reply is recognised as this call's own (a write id stored with the item) and
 * succeeds; the same call made twice is two writes, and the second conflicts.
 */
export interface RunStore {
  /** Creates the run and its task records; refuses (VersionConflictError) if the run exists. */
  createRun(run: RunRecord, tasks: readonly TaskRecord[]): Promise<void>;
  getRun(runId: string): Promise<RunRecord | undefined>;
  /** Newest first. */
  listRuns(options?: ListRunsOptions): Promise<RunRecord[]>;
  saveRun(run: RunRecord, expectedVersion: number): Promise<RunRecord>;

  /** Creates an iteration record; refuses (IterationClaimedError) if it exists. */
  createIteration(iteration: IterationRecord): Promise<void>;
  getIteration(runId: string, iteration: number): Promise<IterationRecord | undefined>;
  /** In iteration order. */
  listIterations(runId: string): Promise<IterationRecord[]>;
  saveIteration(iteration: IterationRecord, expectedVersion: number): Promise<IterationRecord>;
  /**
   * Moves a `planned` iteration to `running` (started at `startedAt`) and returns it, in
   * one write that does not need the record read first. Refuses with IterationClaimedError
   * when the iteration is not `planned` (another runner has it), NotFoundError when there
   * is none.
   */
  claimIteration(runId: string, iteration: number, startedAt: string): Promise<IterationRecord>;

  /** In priority order (1 first), then id. */
  listTasks(runId: string): Promise<TaskRecord[]>;
  saveTask(task: TaskRecord, expectedVersion: number): Promise<TaskRecord>;
}

/** Write-once artefact storage (S3). */
export interface ArtefactStore {
  /**
   * Writes `key` once: a second write of different bytes throws ArtefactExistsError; the
   * same bytes again (a retried write whose reply was lost) succeed without a write.
   */
  put(key: string, body: string | Uint8Array, contentType?: string): Promise<void>;
  /** Throws NotFoundError when the key does not exist. */
  getText(key: string): Promise<string>;
  exists(key: string): Promise<boolean>;
  /** Where a person finds the artefact (an s3:// URI or a local path). */
  locate(key: string): string;
}

/** Starts an execution of the run-loop state machine (a new segment of a run). */
export interface ExecutionStarter {
  /** The execution name is derived from run id and segment, so a repeat is refused. */
  startSegment(input: { runId: string; segment: number }): Promise<{ executionId: string }>;
}

/** One request to a language model (the Anthropic Messages API's shape, minimal). */
export interface ModelRequest {
  model: string;
  system: string;
  messages: { role: 'user' | 'assistant'; content: string }[];
  maxTokens: number;
  temperature?: number;
  /** Per-try timeout; the adapter retries 429 / 529 / 5xx with backoff within its budget. */
  timeoutMs: number;
  signal?: AbortSignal;
}

export interface ModelResponse {
  text: string;
  model: string;
  stopReason: string | null;
  usage: { inputTokens: number; outputTokens: number };
  /** Tries the adapter made (1 when the first answered). */
  attempts: number;
}

/**
 * A language model (the Anthropic Messages API, or Claude on Bedrock). Throws
 * TransientError when the model stayed unavailable through the adapter's bounded retries,
 * RalphError for a request the model refused.
 */
export interface ModelClient {
  complete(request: ModelRequest): Promise<ModelResponse>;
}

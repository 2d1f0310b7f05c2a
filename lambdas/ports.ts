/**
 * The interfaces the core needs from the outside world, in domain terms. Adapters in
 * `lambdas/adapters/` implement them over AWS; tests and the local stack use the same
 * adapters against emulators.
 */
import type { RepoRef, RunRecord, RunStatus } from './core/schemas/run.js';
import type { RunsPage } from './core/schemas/run-views.js';
import type { IterationRecord } from './core/schemas/iteration.js';
import type { TaskRecord } from './core/schemas/task.js';
import type { PatternSet } from './core/schemas/evaluation.js';
import type {
  PatternSetDraft,
  PatternSetPointer,
  PatternSetVersion,
  PublishOptions,
  RollbackOptions,
} from './core/schemas/pattern-sets.js';
import type { NewRelicCredential } from './core/schemas/hook-secrets.js';
import type {
  ErrorGroup,
  ErrorGroupKey,
  ErrorGroupStatus,
  InvestigationBatch,
} from './core/schemas/error-group.js';
import type { FixPullRequest } from './core/schemas/investigation.js';
import type { ProjectRoute, RouteMatch } from './core/schemas/project-route.js';

export interface Clock {
  now(): Date;
}

/**
 * The secrets that authenticate webhook senders. A source not set up answers `undefined`,
 * and its hooks are refused.
 */
export interface HookSecrets {
  /** The Sentry integration's client secret, which signs its deliveries. */
  sentryClientSecret(): Promise<string | undefined>;
  /** The token New Relic's workflow sends, and in which header. */
  newRelicCredential(): Promise<NewRelicCredential | undefined>;
}

// The stores below write conditionally: `expectedVersion` undefined creates, a number saves
// over it; a lost race is VersionConflictError, a store out of reach TransientError.
/** Project routes (the run table): which repository an error of a sender's project is for. */
export interface ProjectRoutes {
  getRoute(projectId: string): Promise<ProjectRoute | undefined>;
  listRoutes(): Promise<ProjectRoute[]>;
  /** The route one of whose matches is `match`. */
  findRoute(match: RouteMatch): Promise<ProjectRoute | undefined>;
  /** VersionConflictError also when one of its matches is another project's. */
  saveRoute(route: ProjectRoute, expectedVersion: number | undefined): Promise<ProjectRoute>;
  /** False when there was none. */
  deleteRoute(projectId: string): Promise<boolean>;
}

/** Which error groups to list: one project's (optionally in one status), or those no route names. */
export type ErrorGroupScope =
  { readonly projectId: string; readonly status?: ErrorGroupStatus } | { readonly unrouted: true };

/**
 * What the hooks keep (the run table): error groups, their batches, the replay keys of
 * deliveries, and runs counted per project and hour.
 */
export interface IncidentStore {
  /**
   * Keeps a delivery's replay key until `expiresAt`; false when it is kept already (a
   * replay). A key kept past its `expiresAt` (as of `receivedAt`) counts as gone.
   */
  rememberDelivery(
    replayKey: string,
    window: { receivedAt: string; expiresAt: string },
  ): Promise<boolean>;
  /** Lets the delivery be taken again: its processing failed, and the sender will retry it. */
  forgetDelivery(replayKey: string): Promise<void>;

  getGroup(key: ErrorGroupKey): Promise<ErrorGroup | undefined>;
  saveGroup(group: ErrorGroup, expectedVersion: number | undefined): Promise<ErrorGroup>;
  listGroups(scope: ErrorGroupScope): Promise<ErrorGroup[]>;

  /**
   * The project's newest batch, open or closed. Batch ids are numbered per project, so two
   * deliveries that both find no open batch try to create the same next one: one wins.
   */
  latestBatch(projectId: string): Promise<InvestigationBatch | undefined>;
  getBatch(projectId: string, batchId: string): Promise<InvestigationBatch | undefined>;
  saveBatch(
    batch: InvestigationBatch,
    expectedVersion: number | undefined,
  ): Promise<InvestigationBatch>;
  /** Every open batch of every project, soonest to close first (read from an index: a moment behind). */
  listOpenBatches(): Promise<InvestigationBatch[]>;

  /** Counts one more run for the project in `hour` (`2026-11-27T07`); false at `limit`. */
  countRun(projectId: string, hour: string, limit: number): Promise<boolean>;
}

/** Closes a batch when its window ends (in AWS a waiting Step Functions execution; locally a timer). */
export interface BatchScheduler {
  /** Scheduling the same batch twice closes it once. */
  scheduleClose(batch: { projectId: string; batchId: string; closesAt: string }): Promise<void>;
}

/** Fix pull requests (the run table), saved before the branch is pushed: one per task. */
export interface FixPullRequests {
  get(runId: string, taskId: string): Promise<FixPullRequest | undefined>;
  save(record: FixPullRequest, expectedVersion: number | undefined): Promise<FixPullRequest>;
}

export interface ListRunsOptions {
  /** At most this many runs. */
  limit?: number;
  /** Only runs in this status. */
  status?: RunStatus;
  /** Where the previous page ended (its `nextCursor`); the first page without it. */
  cursor?: string;
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
  /**
   * A page of runs, newest first, and the cursor of the next page when there may be more.
   * A cursor this store did not hand out is InvalidInputError.
   */
  listRuns(options?: ListRunsOptions): Promise<RunsPage>;
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

  /**
   * Deletes every record of the run (iterations, tasks, anything else under it) and the run
   * record **last**, and returns how many records went. An interrupted delete leaves the
   * run listed with fewer records, and deleting it again finishes the job; a run that does
   * not exist is 0. It does not check the run's status: the caller decides what may go.
   */
  deleteRun(runId: string): Promise<number>;
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
  /**
   * Deletes every artefact whose key starts with `prefix` (which must end with `/`: a
   * folder, never a partial name), and returns how many went. Safe to repeat: a second call
   * finds fewer or none.
   */
  deletePrefix(prefix: string): Promise<number>;
  /** Where a person finds the artefact (an s3:// URI or a local path). */
  locate(key: string): string;
}

/** What became of a run's refs in its repository. */
export type RunRefsCleanup =
  /** The refs found (and, unless a dry run, deleted), full names. */
  | { readonly outcome: 'removed'; readonly refs: readonly string[] }
  /** The local repository is no longer there (or no longer a git repository). */
  | { readonly outcome: 'repository-gone'; readonly path: string }
  /** A git URL: its clones were removed after each iteration; the remote is not touched. */
  | { readonly outcome: 'remote'; readonly url: string };

/**
 * The refs a run leaves in its repository (`refs/ralph/<kind>/<runId>/...`: evidence,
 * checkpoints, reset and moved heads), which pruning the run removes.
 */
export interface RunRefs {
  /** Deletes (or with `dryRun` only lists) the run's refs; safe to repeat. */
  remove(repo: RepoRef, runId: string, options: { dryRun: boolean }): Promise<RunRefsCleanup>;
}

/** Starts an execution of the run-loop state machine (a new segment of a run). */
export interface ExecutionStarter {
  /** The execution name is derived from run id and segment, so a repeat is refused. */
  startSegment(input: { runId: string; segment: number }): Promise<{ executionId: string }>;
  /**
   * Whether the segment's execution is still going: false once it has succeeded, failed,
   * timed out or been stopped, and when it was never started. A run stored as running whose
   * execution is gone has nothing left to stop it or to take it on.
   */
  isRunning(input: { runId: string; segment: number }): Promise<boolean>;
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

/**
 * Pattern sets: the store of a project's pattern-set versions (shared/design/dual-mode-evaluation.md:
 * "Pattern File Corruption", "Automatic Rollback"). The design's file-with-backup becomes
 * immutable versions plus a pointer:
 * - every change is a new version, written once and never changed;
 * - a pointer names the current version and moves only by a conditional write on the
 *   version the caller read (optimistic locking, as RunStore's records);
 * - nothing invalid is ever pointed at: a version is validated before it is written
 *   (publish) or before the pointer returns to it (rollback);
 * - a current version found corrupt later is replaced, for the reader, by the nearest
 *   usable earlier version, and the reader is told.
 */
/** The pattern set a project's evaluations use now. */
export interface CurrentPatternSet {
  /** The version served: the pointer's, or the fallback's when that one is unusable. */
  readonly version: number;
  readonly set: PatternSet;
  /** The pointer as stored: pass `pointer.version` as `expectedCurrent` to change it. */
  readonly pointer: PatternSetPointer;
  /** Set when the pointer's version was unusable: that version. */
  readonly fallbackFrom?: number;
  /** Why the pointer's version was unusable (`body is missing`, the zod paths, ...). */
  readonly fallbackReason?: string;
  /** Every version refused before `version` was found, the pointer's first. */
  readonly skipped?: readonly { readonly version: number; readonly reason: string }[];
}

/**
 * Versioned pattern sets per project. Conflicts are `VersionConflictError`, a malformed
 * set or option `InvalidInputError` (zod paths), a version asked for that does not exist
 * `NotFoundError`, an unusable stored version `PatternSetCorruptError`, a storage failure
 * worth retrying `TransientError`. A write the SDK retried after a lost reply is
 * recognised as this call's own and succeeds; the same call made twice is two calls, and
 * the second conflicts.
 */
export interface PatternSetStore {
  /**
   * The current set, validated; `undefined` when the project has none. When the pointer's
   * version is unusable, the nearest usable ancestor (then any earlier version, newest
   * first) is returned with `fallbackFrom` and `fallbackReason`; the pointer is not moved
   * (a read never writes: `rollback` does that). Throws PatternSetCorruptError when no
   * earlier version is usable either.
   */
  current(projectId: string): Promise<CurrentPatternSet | undefined>;

  /** One version, validated; `undefined` when it was never published. */
  get(projectId: string, version: number): Promise<PatternSet | undefined>;

  /**
   * Every published version's record, newest first, orphans included; with `newerThan`,
   * only those numbered above it (one bounded read, however long the project's history).
   */
  listVersions(projectId: string, options?: { newerThan?: number }): Promise<PatternSetVersion[]>;

  /**
   * Publishes `set` as a new version and makes it current; returns its number (one more
   * than the newest version, so a number is never reused, even after a rollback). Nothing
   * is written when the set or the options are invalid, or when the pointer no longer
   * names `expectedCurrent`. If another publish or rollback moves the pointer between
   * this call's check and its own move, the new version stays stored but not current (an
   * orphan: listed, never served, never a fallback before the current's ancestors) and
   * the call throws VersionConflictError.
   */
  publish(projectId: string, set: PatternSetDraft, options: PublishOptions): Promise<number>;

  /**
   * Points the project back at `toVersion` (any other stored version) after checking its
   * body again; versions are kept. Returns the moved pointer.
   */
  rollback(
    projectId: string,
    toVersion: number,
    options: RollbackOptions,
  ): Promise<PatternSetPointer>;
}

/** A repository on the code host, `owner/name`. */
export interface CodeHostRepo {
  readonly owner: string;
  readonly name: string;
}

/** What the code host says about a repository. */
export interface CodeHostRepository extends CodeHostRepo {
  readonly defaultBranch: string;
  readonly private: boolean;
  /** Where a person sees it. */
  readonly htmlUrl: string;
}

/** A pull request as the code host reports it. */
export interface PullRequest {
  readonly number: number;
  readonly htmlUrl: string;
  readonly state: 'open' | 'closed';
  readonly draft: boolean;
  readonly title: string;
  /** The branch with the changes (without an owner prefix). */
  readonly head: string;
  /** The branch the changes go into. */
  readonly base: string;
}

export interface OpenPullRequestInput {
  readonly head: string;
  readonly base: string;
  readonly title: string;
  readonly body: string;
  readonly draft: boolean;
  /**
   * When the repository has no draft pull requests: `open-ready` opens a normal one,
   * `refuse` throws DraftPullRequestsUnsupportedError. @default 'refuse'
   */
  readonly ifDraftUnsupported?: 'open-ready' | 'refuse';
}

export interface OpenedPullRequest {
  readonly pullRequest: PullRequest;
  /** False when an open pull request for the head branch already existed and is returned. */
  readonly created: boolean;
  /** True when a draft was asked for and a normal pull request opened instead. */
  readonly draftFellBack: boolean;
}

/**
 * The code host (GitHub, GitHub Enterprise) for what an investigate run ends with: a branch,
 * a draft pull request, a comment. Refusals are CodeHostRejectedError, a host that stayed
 * unavailable through the adapter's bounded retries CodeHostUnavailableError (a
 * TransientError). Messages never hold a token.
 */
export interface CodeHost {
  getRepository(repo: CodeHostRepo): Promise<CodeHostRepository>;
  /**
   * Creates `refs/heads/<branch>` at `sha`; `created: false` when the branch already
   * existed (a retried step), which is left as it is.
   */
  createBranch(repo: CodeHostRepo, branch: string, sha: string): Promise<{ created: boolean }>;
  /**
   * Opens a pull request; when one is already open for `head` it is returned instead
   * (`created: false`), so a retried step never opens a second.
   */
  openPullRequest(repo: CodeHostRepo, input: OpenPullRequestInput): Promise<OpenedPullRequest>;
  /** The open pull request whose head is `branch` in this repository, if any. */
  findOpenPullRequest(repo: CodeHostRepo, branch: string): Promise<PullRequest | undefined>;
  /**
   * The repository's open pull requests whose head branch starts with `headPrefix` (all of
   * them when it is empty), read page by page up to a bound: what the cap of open pull
   * requests counts.
   */
  listOpenPullRequests(repo: CodeHostRepo, options: { headPrefix: string }): Promise<PullRequest[]>;
  /** Comments on an issue or pull request; returns where the comment is. */
  commentOnIssue(
    repo: CodeHostRepo,
    issueNumber: number,
    body: string,
  ): Promise<{ id: number; htmlUrl: string }>;
}

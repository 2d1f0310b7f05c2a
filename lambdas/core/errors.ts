/**
 * Every error the core raises. Step Functions `Retry` and `Catch` match on `name`, so each
 * class sets a stable one; `cause` is passed on so the original failure survives.
 */
export class RalphError extends Error {
  /** A stable, machine-readable code (also the Step Functions error name). */
  readonly code: string;

  constructor(message: string, options?: ErrorOptions & { code?: string }) {
    super(message, options);
    this.name = 'RalphError';
    this.code = options?.code ?? 'RALPH_ERROR';
  }
}

/** Input that does not match its schema; `issues` holds one line per problem, zod path first. */
export class InvalidInputError extends RalphError {
  readonly issues: readonly string[];

  constructor(what: string, issues: readonly string[], options?: ErrorOptions) {
    super(`${what} is invalid:\n  ${issues.join('\n  ')}`, { ...options, code: 'INVALID_INPUT' });
    this.name = 'InvalidInputError';
    this.issues = issues;
  }
}

/** A conditional write lost the race: someone else changed the item first. */
export class VersionConflictError extends RalphError {
  constructor(message: string, options?: ErrorOptions) {
    super(message, { ...options, code: 'VERSION_CONFLICT' });
    this.name = 'VersionConflictError';
  }
}

/** A record or artefact that should exist does not. */
export class NotFoundError extends RalphError {
  constructor(message: string, options?: ErrorOptions & { code?: string }) {
    super(message, { ...options, code: options?.code ?? 'NOT_FOUND' });
    this.name = 'NotFoundError';
  }
}

/**
 * A run that was submitted (its request is stored) but not created yet: its first segment's
 * InitRun has not run. Not there yet, rather than not there: a follower waits for it.
 */
export class RunStartingError extends NotFoundError {
  constructor(runId: string, options?: ErrorOptions) {
    super(`run ${runId} was submitted and is starting`, { ...options, code: 'RUN_STARTING' });
    this.name = 'RunStartingError';
  }
}

/** Artefacts are written once; a second write to the same key is refused. */
export class ArtefactExistsError extends RalphError {
  constructor(key: string, options?: ErrorOptions) {
    super(`artefact already exists: ${key}`, { ...options, code: 'ARTEFACT_EXISTS' });
    this.name = 'ArtefactExistsError';
  }
}

/**
 * An artefact whose bytes no longer match the digest stored when it was written: changed
 * after the write (on disk, or by a write that bypassed the store). It is not served.
 */
export class ArtefactDamagedError extends RalphError {
  constructor(where: string, expected: string, actual: string, options?: ErrorOptions) {
    super(
      `artefact ${where} changed after it was written (sha256 ${actual.slice(0, 12)}…, written as ${expected.slice(0, 12)}…), so it is not served: restore its bytes from a backup or a copy, or rerun the iteration in a new run if you need it`,
      { ...options, code: 'ARTEFACT_DAMAGED' },
    );
    this.name = 'ArtefactDamagedError';
  }
}

/** A run lifecycle operation that the run's current status does not allow. */
export class InvalidTransitionError extends RalphError {
  constructor(message: string, options?: ErrorOptions) {
    super(message, { ...options, code: 'INVALID_TRANSITION' });
    this.name = 'InvalidTransitionError';
  }
}

/** An iteration that another worker already claimed (a duplicate delivery or a retry). */
export class IterationClaimedError extends RalphError {
  constructor(runId: string, iteration: number, options?: ErrorOptions) {
    super(`iteration ${iteration} of run ${runId} is already claimed`, {
      ...options,
      code: 'ITERATION_CLAIMED',
    });
    this.name = 'IterationClaimedError';
  }
}

/** A dependency (storage, model, process) that did not answer in time or failed transiently. */
export class TransientError extends RalphError {
  constructor(message: string, options?: ErrorOptions) {
    super(message, { ...options, code: 'TRANSIENT' });
    this.name = 'TransientError';
  }
}

/** An execution with this name was already started: a repeated start is refused. */
export class ExecutionExistsError extends RalphError {
  constructor(name: string, options?: ErrorOptions) {
    super(`execution ${name} already exists`, { ...options, code: 'EXECUTION_EXISTS' });
    this.name = 'ExecutionExistsError';
  }
}

/**
 * A deployment or process setting that is missing or malformed (an environment variable,
 * a secret): nothing a retry fixes.
 */
export class ConfigurationError extends RalphError {
  constructor(message: string, options?: ErrorOptions) {
    super(message, { ...options, code: 'CONFIGURATION' });
    this.name = 'ConfigurationError';
  }
}

/**
 * The code host (GitHub) refused a request: a 4xx that retrying cannot change (bad
 * credentials, a missing repository, a validation failure). `operation` says what was
 * being done, `where` the method and path; neither ever holds a token.
 */
export class CodeHostRejectedError extends RalphError {
  readonly status: number;
  readonly operation: string;
  readonly where: string;

  constructor(
    details: { status: number; operation: string; where: string; reason: string },
    options?: ErrorOptions,
  ) {
    super(
      `${details.operation} was refused by the code host (${details.status} at ${details.where}): ${details.reason}`,
      { ...options, code: 'CODE_HOST_REJECTED' },
    );
    this.name = 'CodeHostRejectedError';
    this.status = details.status;
    this.operation = details.operation;
    this.where = details.where;
  }
}

/**
 * A dependency that stayed unavailable through an adapter's bounded retries (or asked for a
 * longer wait than a call may make): the last HTTP status and the number of tries made.
 */
export class RetriesExhaustedError extends TransientError {
  /** The last HTTP status; undefined for a timeout or a connection failure. */
  readonly status: number | undefined;
  readonly attempts: number;

  constructor(
    message: string,
    details: { status?: number | undefined; attempts: number },
    options?: ErrorOptions,
  ) {
    super(message, options);
    // `name` stays 'TransientError': Step Functions Retry matches on it.
    this.status = details.status;
    this.attempts = details.attempts;
  }
}

/**
 * The code host stayed unavailable (5xx, network errors, timeouts, rate limits) through
 * every try, or asked for a wait longer than a call may make.
 */
export class CodeHostUnavailableError extends RetriesExhaustedError {}

/**
 * The repository's plan has no draft pull requests (GitHub's 422 "Draft pull requests are
 * not supported in this repository"). The caller decides: open a normal pull request, or none.
 */
export class DraftPullRequestsUnsupportedError extends RalphError {
  readonly repository: string;

  constructor(repository: string, options?: ErrorOptions) {
    super(
      `draft pull requests are not supported in ${repository} (its plan has none): open a normal pull request instead, or set the draft fallback to do so`,
      { ...options, code: 'DRAFT_PULL_REQUESTS_UNSUPPORTED' },
    );
    this.name = 'DraftPullRequestsUnsupportedError';
    this.repository = repository;
  }
}

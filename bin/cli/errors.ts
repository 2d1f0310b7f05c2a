import {
  ArtefactDamagedError,
  InvalidInputError,
  InvalidTransitionError,
  NotFoundError,
  VersionConflictError,
} from '../../lambdas/core/errors.js';
import { LocalStoreDamagedError, LocalStoreInUseError } from '../../local/store-errors.js';
import { EXIT } from './exit-codes.js';
import { RepositoryInUseError } from '../../local/repository-lock.js';

/** An error the CLI reports as one message and an exit code, without a stack trace. */
export class CliError extends Error {
  constructor(
    message: string,
    readonly exitCode: number,
    /** The Run API's problem code when the error is its refusal (`RUN_STARTING`, …). */
    readonly code?: string,
    /** One line per invalid field, zod path first (a Run API's `errors`). */
    readonly issues?: readonly string[],
  ) {
    super(message);
    this.name = 'CliError';
  }
}

/** Maps what went wrong to the exit code a script can act on. */
export function exitCodeFor(error: unknown): number {
  if (error instanceof CliError) return error.exitCode;
  if (error instanceof InvalidInputError) return EXIT.invalidInput;
  if (
    error instanceof NotFoundError ||
    error instanceof InvalidTransitionError ||
    // Someone else changed the record first (a route saved over a stale version).
    error instanceof VersionConflictError ||
    error instanceof RepositoryInUseError ||
    error instanceof ArtefactDamagedError
  )
    return EXIT.notPossible;
  // The data dir's state does not allow the command until a person acts (the message says how).
  if (error instanceof LocalStoreDamagedError || error instanceof LocalStoreInUseError)
    return EXIT.notPossible;
  if ((error as { code?: string }).code?.startsWith('commander.')) return EXIT.invalidInput;
  return EXIT.internal;
}

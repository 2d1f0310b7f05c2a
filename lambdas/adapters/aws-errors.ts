/**
 * The one place an AWS SDK failure becomes a core error: which failures are worth
 * retrying later (TransientError, so that a Step Functions `Retry` can wait longer than
 * the SDK did) and how a failure is named in messages. The stores decide what a refusal
 * means (a conflict, a missing item); everything else goes through {@link toStoreError}.
 */
import { RalphError, TransientError } from '../core/errors.js';

const TRANSIENT_ERROR_NAMES = new Set([
  'ThrottlingException',
  'Throttling',
  'ThrottledException',
  'TooManyRequestsException',
  'RequestLimitExceeded',
  'ProvisionedThroughputExceededException',
  'SlowDown',
  'InternalServerError',
  'InternalError',
  'ServiceUnavailable',
  'RequestTimeout',
  'RequestTimeoutException',
  'TimeoutError',
]);

const TRANSIENT_NETWORK_CODES = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'ETIMEDOUT',
  'EPIPE',
  'EAI_AGAIN',
]);

/**
 * Whether an error from an SDK call is worth retrying later: throttling, a 5xx, a timeout
 * or a dropped connection. The SDK has already retried it `maxAttempts` times by then; the
 * adapters turn it into a TransientError so that a Step Functions `Retry` can wait longer.
 */
export function isTransientAwsError(error: unknown): boolean {
  if (typeof error !== 'object' || error === null) return false;
  const candidate = error as {
    name?: unknown;
    code?: unknown;
    $retryable?: unknown;
    $metadata?: { httpStatusCode?: unknown };
  };
  if (typeof candidate.name === 'string' && TRANSIENT_ERROR_NAMES.has(candidate.name)) return true;
  if (typeof candidate.code === 'string' && TRANSIENT_NETWORK_CODES.has(candidate.code))
    return true;
  if (candidate.$retryable !== undefined && candidate.$retryable !== null) return true;
  const status = candidate.$metadata?.httpStatusCode;
  return typeof status === 'number' && status >= 500;
}

/** The SDK error's name and HTTP status, for messages: `ThrottlingException (400)`. */
export function describeAwsError(error: unknown): string {
  if (!(error instanceof Error)) return String(error);
  const status = (error as { $metadata?: { httpStatusCode?: number } }).$metadata?.httpStatusCode;
  return `${error.name}${status === undefined ? '' : ` (${status})`}: ${error.message}`;
}

/**
 * A core error for a failed storage call that the store does not interpret:
 * TransientError when worth retrying later, else a RalphError `STORAGE_ERROR`; the SDK
 * error is its `cause`. A core error passes through unchanged.
 *
 * @example
 * throw toStoreError(error, `DynamoDB GetItem on run ${runId}`);
 */
export function toStoreError(error: unknown, call: string): RalphError {
  if (error instanceof RalphError) return error;
  const message = `${call} failed: ${describeAwsError(error)}`;
  if (isTransientAwsError(error)) return new TransientError(message, { cause: error });
  return new RalphError(message, { cause: error, code: 'STORAGE_ERROR' });
}

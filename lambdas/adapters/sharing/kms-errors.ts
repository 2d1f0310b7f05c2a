/** How a failed KMS call becomes a core error, for the signer and the trust store alike. */
import { RalphError, TransientError } from '../../core/errors.js';
import { describeAwsError, isTransientAwsError } from '../aws-errors.js';

/**
 * TransientError when worth retrying later (throttling, a 5xx, a timeout: the SDK has
 * already retried it), else a RalphError `KMS_ERROR` naming the call and the key.
 *
 * @example
 * throw toKmsError(error, `KMS Sign with ${keyArn}`);
 */
export function toKmsError(error: unknown, call: string): RalphError {
  if (error instanceof RalphError) return error;
  const message = `${call} failed: ${describeAwsError(error)}`;
  if (isTransientAwsError(error)) return new TransientError(message, { cause: error });
  return new RalphError(message, { cause: error, code: 'KMS_ERROR' });
}

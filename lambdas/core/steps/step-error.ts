/** A failed step as a Catch hands it on: Step Functions' `Error` and `Cause`. */
export interface StepError {
  Error: string;
  Cause?: string;
}

const CAUSE_LIMIT = 2_000;

/**
 * One readable line for a caught step error. AWS puts a JSON document in `Cause` — a
 * Lambda's `{ errorType, errorMessage, trace }`, an ECS task's description — where the
 * local engine puts the message itself; both read the same here.
 *
 * @example
 * describeStepError({ Error: 'TransientError', Cause: '{"errorType":"TransientError","errorMessage":"S3 timed out"}' })
 * // 'TransientError: S3 timed out'
 */
export function describeStepError(error: StepError): string {
  const cause = error.Cause?.trim();
  if (!cause) return error.Error;
  const parsed = parseObject(cause);
  if (parsed && typeof parsed.errorMessage === 'string')
    return clip(`${stringOr(parsed.errorType, error.Error)}: ${parsed.errorMessage}`);
  if (parsed && Array.isArray(parsed.Containers)) return clip(describeEcsTask(error.Error, parsed));
  return clip(`${error.Error}: ${cause}`);
}

function describeEcsTask(name: string, task: Record<string, unknown>): string {
  const containers = (task.Containers as Record<string, unknown>[]).map((container) => {
    const exit =
      container.ExitCode === undefined ? 'no exit code' : `exit ${String(container.ExitCode)}`;
    const reason = typeof container.Reason === 'string' ? `, ${container.Reason}` : '';
    return `${stringOr(container.Name, 'container')} ${exit}${reason}`;
  });
  const stopped = stringOr(task.StoppedReason, 'stopped');
  return `${name}: the agent task ended (${stopped}; ${containers.join('; ') || 'no containers'})`;
}

function parseObject(text: string): Record<string, unknown> | undefined {
  if (!text.startsWith('{')) return undefined;
  try {
    const value = JSON.parse(text) as unknown;
    return typeof value === 'object' && value !== null
      ? (value as Record<string, unknown>)
      : undefined;
  } catch {
    return undefined;
  }
}

function stringOr(value: unknown, fallback: string): string {
  return typeof value === 'string' && value !== '' ? value : fallback;
}

function clip(text: string): string {
  return text.length > CAUSE_LIMIT ? `${text.slice(0, CAUSE_LIMIT - 3)}...` : text;
}

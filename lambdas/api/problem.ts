/**
 * RFC 9457 problem details: every refusal of the API is `application/problem+json` with the
 * status, a title, what went wrong (`detail`), one line per invalid field (`errors`, zod path
 * first) and a stable `code` a client can branch on.
 */
import type { RalphError } from '../core/errors.js';
import {
  ArtefactDamagedError,
  ExecutionExistsError,
  InvalidInputError,
  InvalidTransitionError,
  NotFoundError,
  TransientError,
  VersionConflictError,
} from '../core/errors.js';
import type { Problem } from '../core/schemas/run-views.js';

export const PROBLEM_CONTENT_TYPE = 'application/problem+json';

const TITLES: Record<number, string> = {
  400: 'Bad Request',
  401: 'Unauthorized',
  403: 'Forbidden',
  404: 'Not Found',
  405: 'Method Not Allowed',
  409: 'Conflict',
  413: 'Content Too Large',
  415: 'Unsupported Media Type',
  422: 'Unprocessable Content',
  429: 'Too Many Requests',
  500: 'Internal Server Error',
  503: 'Service Unavailable',
};

/** An HTTP refusal raised by the API layer itself (a body too large, a key reused). */
export class HttpProblem extends Error {
  constructor(
    readonly status: number,
    message: string,
    readonly code: string,
    readonly headers: Record<string, string> = {},
  ) {
    super(message);
    this.name = 'HttpProblem';
  }
}

export interface ProblemAnswer {
  problem: Problem & { code: string };
  headers: Record<string, string>;
}

/**
 * The problem an error becomes. Errors we do not know are `500` with a generic detail: their
 * message may hold internals (the caller's log has them, keyed by the request id).
 */
export function problemFor(error: unknown, instance?: string): ProblemAnswer {
  const answer = (
    status: number,
    code: string,
    detail: string,
    extra: Partial<Problem> = {},
    headers: Record<string, string> = {},
  ): ProblemAnswer => ({
    problem: {
      type: 'about:blank',
      title: TITLES[status] ?? 'Error',
      status,
      detail,
      ...(instance === undefined ? {} : { instance }),
      ...extra,
      code,
    },
    headers,
  });
  if (error instanceof HttpProblem)
    return answer(error.status, error.code, error.message, {}, error.headers);
  if (error instanceof InvalidInputError)
    return answer(
      400,
      error.code,
      `${error.message.split('\n')[0]!.replace(/:$/, '')}: ${error.issues.join('; ')}`,
      { errors: [...error.issues] },
    );
  if (error instanceof NotFoundError) return answer(404, error.code, error.message);
  if (
    error instanceof InvalidTransitionError ||
    error instanceof VersionConflictError ||
    error instanceof ArtefactDamagedError ||
    error instanceof ExecutionExistsError
  )
    return answer(409, (error as RalphError).code, error.message);
  if (error instanceof TransientError)
    return answer(
      503,
      error.code,
      'a dependency did not answer in time; retry later',
      {},
      {
        'retry-after': '5',
      },
    );
  return answer(500, 'INTERNAL', 'the request failed; the service log has the cause');
}

/**
 * The Run API over HTTP, signed with SigV4. Every call has a timeout and a bounded retry
 * with backoff and jitter: reads on any network failure, 429, 502, 503 or 504; a start (its
 * Idempotency-Key makes a repeat harmless) likewise; cancel and resume only when the gateway
 * refused before anything was done (429, 503). Refusals (problem+json) become CliErrors with
 * the exit codes local mode uses.
 */
import type { z } from 'zod';
import { signRequest } from '../../../lambdas/adapters/sigv4.js';
import { ProblemSchema } from '../../../lambdas/core/schemas/run-views.js';
import { CliError } from '../errors.js';
import { EXIT } from '../exit-codes.js';
import type { SigningIdentity } from './signing-identity.js';

/** Which failures a call may be repeated after. */
export type RetryPolicy = 'any-failure' | 'refused-only';

export interface ApiClientOptions {
  endpoint: URL;
  identity: SigningIdentity;
  /** Per attempt. @default 15000 */
  timeoutMs?: number;
  /** Attempts in all, the first included. @default 5 */
  attempts?: number;
  /** Backoff base; attempt n waits up to base × 2^n (full jitter), at most 5 s. @default 250 */
  backoffMs?: number;
  fetch?: typeof fetch;
}

interface Call {
  method: 'GET' | 'POST' | 'PUT' | 'DELETE';
  path: string;
  body?: unknown;
  headers?: Record<string, string>;
  retry: RetryPolicy;
}

const RETRIED_ALWAYS = new Set([429, 502, 503, 504]);
const RETRIED_WHEN_REFUSED = new Set([429, 503]);
const MAX_BACKOFF_MS = 5_000;

export class ApiClient {
  readonly endpoint: URL;
  /** The endpoint without a trailing slash: paths are appended to it (a stage or base path kept). */
  readonly base: string;
  readonly #options: Required<Omit<ApiClientOptions, 'endpoint' | 'identity'>> & {
    identity: SigningIdentity;
  };

  constructor(options: ApiClientOptions) {
    this.endpoint = options.endpoint;
    this.base = `${options.endpoint.origin}${options.endpoint.pathname.replace(/\/$/, '')}`;
    this.#options = {
      identity: options.identity,
      timeoutMs: options.timeoutMs ?? 15_000,
      attempts: options.attempts ?? 5,
      backoffMs: options.backoffMs ?? 250,
      fetch: options.fetch ?? fetch,
    };
  }

  /** The call's JSON answer, parsed with `schema`. */
  async json<S extends z.ZodType>(call: Call, schema: S): Promise<z.output<S>> {
    const response = await this.send(call);
    const parsed = schema.safeParse(await response.json());
    if (!parsed.success)
      throw new CliError(
        `${call.method} ${call.path}: the API answered in an unexpected shape (${parsed.error.issues[0]?.message ?? 'invalid'}); is ${this.endpoint.origin} a ralph-cloud Run API of this version?`,
        EXIT.internal,
      );
    return parsed.data;
  }

  /** Where a `302` of the call points. */
  async location(call: Call): Promise<string> {
    const response = await this.send(call, 'manual');
    const location = response.headers.get('location');
    if (response.status !== 302 || !location)
      throw new CliError(
        `${call.method} ${call.path}: expected a redirect, got ${response.status}`,
        EXIT.internal,
      );
    return location;
  }

  /** The call's response once it succeeded (2xx or 3xx); refusals thrown as CliErrors. */
  async send(call: Call, redirect: 'follow' | 'manual' = 'follow'): Promise<Response> {
    const retried = call.retry === 'any-failure' ? RETRIED_ALWAYS : RETRIED_WHEN_REFUSED;
    for (let attempt = 1; ; attempt += 1) {
      const last = attempt >= this.#options.attempts;
      let response: Response;
      try {
        response = await this.#attempt(call, redirect);
      } catch (error) {
        // The request may not have reached the server (or its answer was lost): only a call
        // that may be repeated is.
        if (last || call.retry !== 'any-failure') throw this.#unreachable(call, error);
        await this.#pause(attempt);
        continue;
      }
      if (response.status < 400) return response;
      if (last || !retried.has(response.status)) throw await problemError(call, response);
      await this.#pause(attempt, response.headers.get('retry-after'));
    }
  }

  async #attempt(call: Call, redirect: 'follow' | 'manual'): Promise<Response> {
    const url = new URL(`${this.base}${call.path}`);
    const body = call.body === undefined ? undefined : JSON.stringify(call.body);
    const headers = await signRequest(
      {
        method: call.method,
        url,
        headers: {
          accept: 'application/json, application/problem+json',
          ...(body === undefined ? {} : { 'content-type': 'application/json' }),
          ...call.headers,
        },
        ...(body === undefined ? {} : { body }),
      },
      this.#options.identity,
    );
    delete headers.host;
    return this.#options.fetch(url, {
      method: call.method,
      headers,
      body,
      redirect,
      signal: AbortSignal.timeout(this.#options.timeoutMs),
    });
  }

  async #pause(attempt: number, retryAfter?: string | null): Promise<void> {
    const asked = retryAfter ? Number(retryAfter) * 1000 : Number.NaN;
    const backoff =
      Math.random() * Math.min(MAX_BACKOFF_MS, this.#options.backoffMs * 2 ** attempt);
    const ms = Number.isFinite(asked) ? Math.min(asked, MAX_BACKOFF_MS) : backoff;
    await new Promise((resolve) => setTimeout(resolve, ms));
  }

  #unreachable(call: Call, error: unknown): CliError {
    const cause =
      (error as Error).name === 'TimeoutError'
        ? `no answer within ${this.#options.timeoutMs} ms`
        : ((error as { cause?: Error }).cause?.message ?? (error as Error).message);
    return new CliError(`${call.method} ${this.base}${call.path} failed: ${cause}`, EXIT.internal);
  }
}

/** A refusal as the CLI reports it: the problem's detail and fields, and local mode's exit code. */
export async function problemError(
  call: Pick<Call, 'method' | 'path'>,
  response: Response,
): Promise<CliError> {
  const text = await response.text();
  let problem: z.infer<typeof ProblemSchema> | undefined;
  try {
    const parsed = ProblemSchema.safeParse(JSON.parse(text));
    problem = parsed.success ? parsed.data : undefined;
  } catch {
    problem = undefined;
  }
  const detail = problem?.detail ?? (text.slice(0, 200) || response.statusText);
  const status = response.status;
  if (status === 401 || status === 403)
    return new CliError(`not authorized (${status}): ${detail}`, EXIT.internal);
  if ([400, 413, 415, 422].includes(status)) {
    const issues = problem?.errors ?? [];
    const head = detail.split(': ')[0] ?? detail;
    return new CliError(
      issues.length > 0 ? `${head}:\n  ${issues.join('\n  ')}` : detail,
      EXIT.invalidInput,
      problem?.code,
      issues,
    );
  }
  if (status === 404 || status === 409)
    return new CliError(detail, EXIT.notPossible, problem?.code);
  return new CliError(`${call.method} ${call.path}: ${status} ${detail}`, EXIT.internal);
}

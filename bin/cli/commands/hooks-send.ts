import { randomUUID } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import { nodeHookDigest } from '../../../lambdas/adapters/hook-digest.js';
import { signRequest } from '../../../lambdas/adapters/sigv4.js';
import {
  NewRelicCredentialSchema,
  type NewRelicCredential,
} from '../../../lambdas/core/schemas/hook-secrets.js';
import {
  cloudWatchDeliveryHeaders,
  newRelicDeliveryHeaders,
  sentryDeliveryHeaders,
  sentryResourceOf,
  SENTRY_RESOURCES,
  type HookSource,
  type SentryResource,
} from '../../../lambdas/core/shared/hook-auth/delivery.js';
import { parseJsonText, parseOrThrow } from '../../../lambdas/core/shared/validation.js';
import { CliError } from '../errors.js';
import { EXIT } from '../exit-codes.js';
import { postDelivery, type DeliveryAnswer } from '../hooks/post-delivery.js';
import type { Output } from '../output.js';
import { signingIdentity } from '../remote/signing-identity.js';

export interface HooksSendOptions {
  endpoint?: string;
  /** Where `ralph serve`'s credential is, for a CloudWatch delivery to it (signed with SigV4). */
  dataDir: string;
  secret?: string;
  token?: string;
  header?: string;
  resource?: SentryResource;
  /** Seconds per attempt. */
  timeout: number;
  /** The options set from the environment: not refused for a source they do not apply to. */
  fromEnvironment?: readonly string[];
}

/**
 * `ralph hooks send SOURCE FILE`: posts a payload file to `<endpoint>/hooks/<source>` as the
 * sender would (Sentry signs it; New Relic carries its token; CloudWatch's SNS or EventBridge
 * shape goes as it is, signed with SigV4 as the API's authorizer requires: AWS itself
 * delivers alarms to a deployment by EventBridge and SNS) and prints the answer. Options
 * are checked before anything is sent.
 */
export async function hooksSendCommand(
  source: HookSource,
  file: string,
  options: HooksSendOptions,
  output: Output,
): Promise<number> {
  const url = hookUrl(options.endpoint, source);
  const body = await readPayload(file);
  const payload = parseJsonText(Buffer.from(body).toString('utf8'), file);
  const unsigned = headersFor(source, body, payload, file, options);
  const headers = source === 'cloudwatch' ? await signed(url, unsigned, body, options) : unsigned;
  const answer = await postDelivery({ url, headers, body }, { timeoutMs: options.timeout * 1000 });
  report(output, url, answer);
  if (answer.status < 300) return EXIT.ok;
  return answer.status < 500 ? EXIT.notPossible : EXIT.internal;
}

function hookUrl(endpoint: string | undefined, source: HookSource): URL {
  if (endpoint === undefined)
    throw new CliError(
      'ralph hooks send needs --endpoint URL (or RALPH_ENDPOINT): the Run API to post to',
      EXIT.invalidInput,
    );
  let base: URL;
  try {
    base = new URL(endpoint);
  } catch {
    throw new CliError(
      `--endpoint ${endpoint} is not a URL (e.g. http://127.0.0.1:8787)`,
      EXIT.invalidInput,
    );
  }
  if (base.protocol !== 'http:' && base.protocol !== 'https:')
    throw new CliError(
      `--endpoint ${endpoint} must be an http:// or https:// URL`,
      EXIT.invalidInput,
    );
  return new URL(`${base.origin}${base.pathname.replace(/\/$/, '')}/hooks/${source}`);
}

async function readPayload(file: string): Promise<Uint8Array> {
  try {
    return await readFile(file);
  } catch (error) {
    throw new CliError(`cannot read ${file}: ${(error as Error).message}`, EXIT.invalidInput);
  }
}

/** The options each source takes; the others are refused for it. */
const CREDENTIAL_OPTIONS: Readonly<Record<HookSource, readonly string[]>> = {
  sentry: ['secret', 'resource'],
  newrelic: ['token', 'header'],
  cloudwatch: [],
};

/** Each source takes its own credential option and refuses the others'. */
function headersFor(
  source: HookSource,
  body: Uint8Array,
  payload: unknown,
  file: string,
  options: HooksSendOptions,
): Record<string, string> {
  const given = (['secret', 'token', 'header', 'resource'] as const).filter(
    (name) => options[name] !== undefined && !options.fromEnvironment?.includes(name),
  );
  const allowed = CREDENTIAL_OPTIONS[source];
  const stray = given.filter((name) => !allowed.includes(name));
  if (stray.length > 0)
    throw new CliError(
      `--${stray.join(', --')} ${stray.length === 1 ? 'does' : 'do'} not apply to ${source}${allowed.length > 0 ? ` (it takes --${allowed.join(', --')})` : ' (it sends the payload as it is)'}`,
      EXIT.invalidInput,
    );
  if (source === 'sentry') return sentryHeaders(body, payload, file, options);
  if (source === 'newrelic') return newRelicDeliveryHeaders(newRelicCredential(options));
  return cloudWatchDeliveryHeaders(payload);
}

/**
 * The headers of a CloudWatch delivery signed with SigV4: with `ralph serve`'s credential
 * for a loopback endpoint, else the AWS credentials of the environment.
 */
async function signed(
  url: URL,
  headers: Record<string, string>,
  body: Uint8Array,
  options: HooksSendOptions,
): Promise<Record<string, string>> {
  const lower = Object.fromEntries(
    Object.entries(headers).map(([name, value]) => [name.toLowerCase(), value]),
  );
  const identity = await signingIdentity(url, options.dataDir);
  return signRequest({ method: 'POST', url, headers: lower, body }, identity);
}

function sentryHeaders(
  body: Uint8Array,
  payload: unknown,
  file: string,
  options: HooksSendOptions,
): Record<string, string> {
  if (options.secret === undefined)
    throw new CliError(
      "sentry needs --secret S (or RALPH_SENTRY_CLIENT_SECRET): the integration's client secret, which signs the payload",
      EXIT.invalidInput,
    );
  const resource = options.resource ?? sentryResourceOf(payload);
  if (resource === undefined)
    throw new CliError(
      `${file}: cannot tell which Sentry resource this payload is (its data has none of ${SENTRY_RESOURCES.join(', ')}); name it with --resource`,
      EXIT.invalidInput,
    );
  return sentryDeliveryHeaders({
    body,
    clientSecret: options.secret,
    resource,
    now: new Date(),
    requestId: randomUUID(),
    digest: nodeHookDigest,
  });
}

function newRelicCredential(options: HooksSendOptions): NewRelicCredential {
  if (options.token === undefined)
    throw new CliError(
      'newrelic needs --token T (or RALPH_NEWRELIC_TOKEN): the token its workflow webhook carries',
      EXIT.invalidInput,
    );
  const credential =
    options.header === undefined
      ? { kind: 'bearer', token: options.token }
      : { kind: 'header', header: options.header, value: options.token };
  return parseOrThrow(NewRelicCredentialSchema, credential, '--token/--header');
}

function report(output: Output, url: URL, answer: DeliveryAnswer): void {
  const tries = answer.attempts === 1 ? '' : ` after ${answer.attempts} attempts`;
  output.line(`POST ${url.href} → ${answer.status}${tries}`);
  if (answer.body !== '') output.line(answer.body);
  output.data({
    url: url.href,
    status: answer.status,
    attempts: answer.attempts,
    body: bodyValue(answer.body),
  });
}

/** The answer's JSON as JSON under --json, else its text. */
function bodyValue(text: string): unknown {
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return text;
  }
}

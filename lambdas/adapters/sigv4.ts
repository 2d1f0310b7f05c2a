/**
 * AWS Signature Version 4 for Run API requests (service `execute-api`), over Smithy's signer
 * (the AWS SDK's own). The CLI signs with it; the local server recomputes a request's
 * signature with it to check one, so both sides canonicalise a request the same way.
 */
import { createHash, createHmac, type Hash, type Hmac } from 'node:crypto';
import { SignatureV4 } from '@smithy/signature-v4';
import type {
  AwsCredentialIdentity,
  AwsCredentialIdentityProvider,
  SourceData,
} from '@smithy/types';

export const API_SIGNING_SERVICE = 'execute-api';

/** SHA-256 (or its HMAC with a key) in the shape Smithy's signer asks for. */
class Sha256 {
  readonly #hash: Hash | Hmac;
  constructor(secret?: SourceData) {
    this.#hash = secret === undefined ? createHash('sha256') : createHmac('sha256', bytes(secret));
  }
  update(data: Uint8Array): void {
    this.#hash.update(data);
  }
  async digest(): Promise<Uint8Array> {
    return new Uint8Array(this.#hash.digest());
  }
}

function bytes(data: SourceData): string | Uint8Array {
  if (typeof data === 'string' || data instanceof Uint8Array) return data;
  return ArrayBuffer.isView(data)
    ? new Uint8Array(data.buffer, data.byteOffset, data.byteLength)
    : new Uint8Array(data);
}

export interface SignableRequest {
  method: string;
  url: URL;
  /** Header names in lower case. */
  headers: Record<string, string>;
  body?: string | Uint8Array;
}

export interface SigningOptions {
  credentials: AwsCredentialIdentity | AwsCredentialIdentityProvider;
  region: string;
  /** The signing time (the local server passes the request's own `x-amz-date`). */
  signingDate?: Date;
  /** Sign exactly these headers (the local server passes the request's SignedHeaders). */
  signableHeaders?: ReadonlySet<string>;
}

/** The request's query as the signer takes it: repeated names as arrays. */
function queryOf(url: URL): Record<string, string | string[]> {
  const query: Record<string, string | string[]> = {};
  for (const [name, value] of url.searchParams) {
    const previous = query[name];
    query[name] =
      previous === undefined
        ? value
        : [...(Array.isArray(previous) ? previous : [previous]), value];
  }
  return query;
}

/**
 * The headers to send: the request's own plus `host`, `x-amz-date`, `authorization` (and
 * `x-amz-security-token` with temporary credentials).
 */
export async function signRequest(
  request: SignableRequest,
  options: SigningOptions,
): Promise<Record<string, string>> {
  const signer = new SignatureV4({
    credentials: options.credentials,
    region: options.region,
    service: API_SIGNING_SERVICE,
    sha256: Sha256,
    // No x-amz-content-sha256 header of our own: API Gateway does not need it, and a checker
    // must sign exactly the headers the request lists (curl --aws-sigv4 sends none).
    applyChecksum: false,
  });
  const signed = await signer.sign(
    {
      method: request.method,
      protocol: request.url.protocol,
      hostname: request.url.hostname,
      ...(request.url.port ? { port: Number(request.url.port) } : {}),
      path: request.url.pathname,
      query: queryOf(request.url),
      headers: { ...request.headers, host: request.url.host },
      ...(request.body === undefined ? {} : { body: request.body }),
    },
    {
      ...(options.signingDate ? { signingDate: options.signingDate } : {}),
      ...(options.signableHeaders ? { signableHeaders: new Set(options.signableHeaders) } : {}),
    },
  );
  return signed.headers;
}

/**
 * What API Gateway's IAM authorization does, for the local server: a request must carry a
 * SigV4 signature made with the server's credential, for this region and `execute-api`,
 * within 5 minutes of now, over exactly this method, path, query, signed headers and body.
 * The signature is recomputed with the same signer the CLI uses and compared in constant
 * time.
 */
import { createHash, timingSafeEqual } from 'node:crypto';
import { API_SIGNING_SERVICE, signRequest } from '../../lambdas/adapters/sigv4.js';

export interface LocalCredential {
  accessKeyId: string;
  secretAccessKey: string;
}

export interface ReceivedRequest {
  method: string;
  /** As received: `http://host:port/path?query`. */
  url: URL;
  /** Lower-case names. */
  headers: Record<string, string>;
  body: Buffer;
}

export type SignatureVerdict =
  { ok: true; accessKeyId: string } | { ok: false; status: 401 | 403; reason: string };

const MAX_SKEW_MS = 5 * 60 * 1000;
const AUTHORIZATION =
  /^AWS4-HMAC-SHA256 Credential=([^/,\s]+)\/(\d{8})\/([^/,\s]+)\/([^/,\s]+)\/aws4_request,\s*SignedHeaders=([a-z0-9;-]+),\s*Signature=([0-9a-f]{64})$/;

/** `20261126T194012Z` → a Date, or undefined when malformed. */
function amzDate(value: string | undefined): Date | undefined {
  const match = /^(\d{4})(\d{2})(\d{2})T(\d{2})(\d{2})(\d{2})Z$/.exec(value ?? '');
  if (!match) return undefined;
  const [, year, month, day, hour, minute, second] = match.map(Number);
  return new Date(Date.UTC(year!, month! - 1, day!, hour!, minute!, second!));
}

const refuse = (status: 401 | 403, reason: string): SignatureVerdict => ({
  ok: false,
  status,
  reason,
});

export async function checkSignature(
  request: ReceivedRequest,
  credential: LocalCredential,
  region: string,
  now: Date,
): Promise<SignatureVerdict> {
  const authorization = request.headers.authorization;
  if (!authorization)
    return refuse(401, 'the request is not signed (AWS SigV4, service execute-api)');
  const match = AUTHORIZATION.exec(authorization);
  if (!match) return refuse(403, 'the Authorization header is not an AWS4-HMAC-SHA256 signature');
  const [, accessKeyId, , signedRegion, service, signedHeaders, signature] = match;
  if (accessKeyId !== credential.accessKeyId)
    return refuse(
      403,
      `the access key ${accessKeyId} is not this server's (see .ralph/serve.json)`,
    );
  if (signedRegion !== region || service !== API_SIGNING_SERVICE)
    return refuse(
      403,
      `signed for ${signedRegion}/${service}; this server is ${region}/${API_SIGNING_SERVICE}`,
    );
  const date = amzDate(request.headers['x-amz-date']);
  if (!date) return refuse(403, 'x-amz-date is missing or malformed');
  if (Math.abs(now.getTime() - date.getTime()) > MAX_SKEW_MS)
    return refuse(403, 'the signature is more than 5 minutes from the server time');
  const names = signedHeaders!.split(';');
  if (!names.includes('host')) return refuse(403, 'the host header must be signed');
  const declaredHash = request.headers['x-amz-content-sha256'];
  if (declaredHash !== undefined && declaredHash !== sha256Hex(request.body))
    return refuse(403, 'x-amz-content-sha256 does not match the body');

  const expected = await signRequest(
    {
      method: request.method,
      url: request.url,
      headers: Object.fromEntries(
        names.filter((name) => name !== 'host').map((name) => [name, request.headers[name] ?? '']),
      ),
      body: request.body,
    },
    { credentials: credential, region, signingDate: date, signableHeaders: new Set(names) },
  );
  const expectedSignature = /Signature=([0-9a-f]{64})$/.exec(expected.authorization ?? '')?.[1];
  const same =
    expectedSignature !== undefined &&
    timingSafeEqual(Buffer.from(expectedSignature), Buffer.from(signature!));
  return same
    ? { ok: true, accessKeyId: accessKeyId! }
    : refuse(
        403,
        'the signature does not match this request (another secret, body, route or time)',
      );
}

function sha256Hex(body: Buffer): string {
  return createHash('sha256').update(body).digest('hex');
}

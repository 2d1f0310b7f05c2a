/**
 * Stand-ins for the two AWS credential services an agent container meets, speaking their
 * wire protocols, so the runner's bundle gets its credentials exactly as it does in ECS:
 * - the ECS container credential endpoint (`AWS_CONTAINER_CREDENTIALS_FULL_URI`): GET on a
 *   secret path answers the task role's keys as JSON; any other path is 404;
 * - STS `AssumeRole` (the Query protocol: a form-encoded POST, an XML answer), which
 *   records each request (role, session name, session policy) and hands out keys the
 *   emulators accept.
 */
import { randomUUID } from 'node:crypto';
import { createServer, type IncomingMessage } from 'node:http';
import type { StaticCredentials } from '../../lambdas/adapters/aws-clients.js';
import { listenOnLoopback, type Listening } from '../../local/loopback/listen.js';

/** What a stand-in was asked. */
export interface SeenRequest {
  readonly method: string;
  readonly path: string;
  /** The access key id of the SigV4 `Authorization` header, when signed. */
  readonly signedBy?: string;
  readonly form?: Readonly<Record<string, string>>;
}

export interface StandIn extends Listening {
  readonly seen: readonly SeenRequest[];
}

export interface CredentialEndpoint extends StandIn {
  /** `AWS_CONTAINER_CREDENTIALS_FULL_URI`, secret path included. */
  readonly fullUri: string;
}

function expiresIn(minutes: number): string {
  return new Date(Date.now() + minutes * 60_000).toISOString();
}

async function bodyOf(request: IncomingMessage): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of request) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks).toString('utf8');
}

function signer(request: IncomingMessage): string | undefined {
  return /Credential=([^/]+)\//.exec(request.headers.authorization ?? '')?.[1];
}

/** The task role's credential endpoint, answering `credentials` on one secret path. */
export async function startCredentialEndpoint(
  credentials: StaticCredentials,
): Promise<CredentialEndpoint> {
  const path = `/v2/credentials/${randomUUID()}`;
  const seen: SeenRequest[] = [];
  const server = createServer((request, response) => {
    seen.push({ method: request.method ?? '', path: request.url ?? '' });
    if (request.method !== 'GET' || request.url !== path) {
      response.writeHead(404, { 'content-type': 'application/json' });
      response.end('{"message":"not found"}');
      return;
    }
    response.writeHead(200, { 'content-type': 'application/json' });
    response.end(
      JSON.stringify({
        AccessKeyId: credentials.accessKeyId,
        SecretAccessKey: credentials.secretAccessKey,
        Token: `task-role-${randomUUID()}`,
        Expiration: expiresIn(60),
        RoleArn: 'arn:aws:iam::123456789012:role/agent-task-role',
      }),
    );
  });
  const listening = await listenOnLoopback(server);
  return { ...listening, seen, fullUri: `${listening.url}${path}` };
}

/**
 * STS answering AssumeRole with a fresh session token and the keys `keysFor` gives for the
 * role (by default `credentials`, which the emulators accept).
 */
export async function startStsStandIn(
  credentials: StaticCredentials,
  keysFor: (roleArn: string) => StaticCredentials = () => credentials,
): Promise<StandIn> {
  const seen: SeenRequest[] = [];
  const server = createServer((request, response) => {
    void bodyOf(request).then((text) => {
      const form = Object.fromEntries(new URLSearchParams(text));
      const signedBy = signer(request);
      seen.push({
        method: request.method ?? '',
        path: request.url ?? '',
        form,
        ...(signedBy === undefined ? {} : { signedBy }),
      });
      if (form.Action !== 'AssumeRole' || signedBy === undefined) {
        response.writeHead(400, { 'content-type': 'text/xml' });
        response.end(
          '<ErrorResponse><Error><Type>Sender</Type><Code>InvalidAction</Code><Message>only signed AssumeRole</Message></Error></ErrorResponse>',
        );
        return;
      }
      const keys = keysFor(form.RoleArn ?? '');
      response.writeHead(200, { 'content-type': 'text/xml' });
      response.end(`<AssumeRoleResponse xmlns="https://sts.amazonaws.com/doc/2011-06-15/">
  <AssumeRoleResult>
    <Credentials>
      <AccessKeyId>${keys.accessKeyId}</AccessKeyId>
      <SecretAccessKey>${keys.secretAccessKey}</SecretAccessKey>
      <SessionToken>run-session-${randomUUID()}</SessionToken>
      <Expiration>${expiresIn(60)}</Expiration>
    </Credentials>
    <AssumedRoleUser>
      <AssumedRoleId>AROAEXAMPLE:${form.RoleSessionName ?? ''}</AssumedRoleId>
      <Arn>${form.RoleArn ?? ''}/${form.RoleSessionName ?? ''}</Arn>
    </AssumedRoleUser>
  </AssumeRoleResult>
  <ResponseMetadata><RequestId>${randomUUID()}</RequestId></ResponseMetadata>
</AssumeRoleResponse>`);
    });
  });
  const listening = await listenOnLoopback(server);
  return { ...listening, seen };
}

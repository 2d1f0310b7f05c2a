/**
 * Stand-ins for AWS services no emulator of ours speaks, speaking their wire protocols.
 * The two credential services an agent container meets, so the runner's bundle gets its
 * credentials exactly as it does in ECS:
 * - the ECS container credential endpoint (`AWS_CONTAINER_CREDENTIALS_FULL_URI`): GET on a
 *   secret path answers the task role's keys as JSON; any other path is 404;
 * - STS `AssumeRole` (the Query protocol: a form-encoded POST, an XML answer), which
 *   records each request (role, session name, session policy) and hands out keys the
 *   emulators accept.
 *
 * And Secrets Manager's `GetSecretValue` (the JSON 1.1 protocol: a POST naming the operation
 * in `X-Amz-Target`), for the adapters that read secrets.
 */
import { randomUUID } from 'node:crypto';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
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

export interface SecretsManagerStandIn extends StandIn {
  /** Answers the next `count` requests with a 500 `InternalServiceError`. */
  failNext(count: number): void;
}

/**
 * Secrets Manager answering signed `GetSecretValue` for `secrets` (id → text) as the service
 * does; an unknown id is its `ResourceNotFoundException`.
 */
export async function startSecretsManagerStandIn(
  secrets: Readonly<Record<string, string>>,
): Promise<SecretsManagerStandIn> {
  const seen: SeenRequest[] = [];
  let failures = 0;
  const answer = (
    response: ServerResponse,
    status: number,
    body: Record<string, unknown>,
    errorType?: string,
  ) => {
    response.writeHead(status, {
      'content-type': 'application/x-amz-json-1.1',
      'x-amzn-requestid': randomUUID(),
      ...(errorType === undefined ? {} : { 'x-amzn-errortype': errorType }),
    });
    response.end(JSON.stringify(errorType === undefined ? body : { __type: errorType, ...body }));
  };
  const server = createServer((request, response) => {
    void bodyOf(request).then((text) => {
      const signedBy = signer(request);
      const target = String(request.headers['x-amz-target'] ?? '');
      seen.push({
        method: request.method ?? '',
        path: request.url ?? '',
        form: { target },
        ...(signedBy === undefined ? {} : { signedBy }),
      });
      if (failures > 0) {
        failures -= 1;
        answer(response, 500, { message: 'stand-in failure' }, 'InternalServiceError');
        return;
      }
      if (target !== 'secretsmanager.GetSecretValue' || signedBy === undefined) {
        answer(response, 400, { message: 'only signed GetSecretValue' }, 'InvalidRequestException');
        return;
      }
      const { SecretId: id } = JSON.parse(text) as { SecretId: string };
      const value = secrets[id];
      if (value === undefined) {
        answer(
          response,
          400,
          { message: "Secrets Manager can't find the specified secret." },
          'ResourceNotFoundException',
        );
        return;
      }
      answer(response, 200, {
        ARN: `arn:aws:secretsmanager:eu-west-1:123456789012:secret:${id}-AbCdEf`,
        Name: id,
        SecretString: value,
        VersionId: randomUUID(),
        VersionStages: ['AWSCURRENT'],
        CreatedDate: Math.floor(Date.now() / 1000),
      });
    });
  });
  const listening = await listenOnLoopback(server);
  return {
    ...listening,
    seen,
    failNext: (count) => {
      failures = count;
    },
  };
}

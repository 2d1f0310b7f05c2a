/**
 * An HTTP request as API Gateway (HTTP API, payload format 2.0) hands it to a Lambda: the
 * local server builds exactly this event, so the deployed handlers run unchanged.
 */
import { randomUUID } from 'node:crypto';
import type { APIGatewayProxyEventV2, Context } from 'aws-lambda';

/** The account the local server reports in its events and caller ARNs. */
export const LOCAL_ACCOUNT_ID = '000000000000';

export interface EventSource {
  method: string;
  url: URL;
  /** Lower-case names; repeated headers joined with commas, as API Gateway does. */
  headers: Record<string, string>;
  body: Buffer;
  sourceIp: string;
  /** The signing access key, for the IAM authorizer context; none on a webhook route. */
  accessKeyId?: string;
}

/** Bodies of these types are passed as text; anything else base64-encoded. */
const TEXT_BODY = /^(application\/([\w.+-]+\+)?json|text\/)/i;

export function apiGatewayEvent(source: EventSource, now: Date): APIGatewayProxyEventV2 {
  const query: Record<string, string> = {};
  for (const [name, value] of source.url.searchParams)
    query[name] = query[name] === undefined ? value : `${query[name]},${value}`;
  const text = TEXT_BODY.test(source.headers['content-type'] ?? '');
  const userArn = `arn:aws:iam::${LOCAL_ACCOUNT_ID}:user/ralph-serve`;
  const iam = {
    accessKey: source.accessKeyId,
    accountId: LOCAL_ACCOUNT_ID,
    callerId: source.accessKeyId,
    principalOrgId: null,
    userArn,
    userId: source.accessKeyId,
    cognitoIdentity: null,
  };
  return {
    version: '2.0',
    routeKey: '$default',
    rawPath: source.url.pathname,
    rawQueryString: source.url.search.replace(/^\?/, ''),
    headers: source.headers,
    ...(Object.keys(query).length > 0 ? { queryStringParameters: query } : {}),
    requestContext: {
      accountId: LOCAL_ACCOUNT_ID,
      apiId: 'local',
      domainName: source.url.hostname,
      domainPrefix: source.url.hostname.split('.')[0]!,
      http: {
        method: source.method,
        path: source.url.pathname,
        protocol: 'HTTP/1.1',
        sourceIp: source.sourceIp,
        userAgent: source.headers['user-agent'] ?? '',
      },
      requestId: randomUUID(),
      routeKey: '$default',
      stage: '$default',
      time: now.toUTCString(),
      timeEpoch: now.getTime(),
      ...(source.accessKeyId === undefined ? {} : { authorizer: { iam } }),
    } as APIGatewayProxyEventV2['requestContext'],
    ...(source.body.length > 0 ? { body: source.body.toString(text ? 'utf8' : 'base64') } : {}),
    isBase64Encoded: source.body.length > 0 && !text,
  };
}

/** The Lambda context a handler may read; the local server gives each request 29 s, as API Gateway does. */
export function lambdaContext(requestId: string): Context {
  const deadline = Date.now() + 29_000;
  return {
    callbackWaitsForEmptyEventLoop: false,
    functionName: 'ralph-api-local',
    functionVersion: '$LATEST',
    invokedFunctionArn: `arn:aws:lambda:local:${LOCAL_ACCOUNT_ID}:function:ralph-api-local`,
    memoryLimitInMB: '512',
    awsRequestId: requestId,
    logGroupName: '/aws/lambda/ralph-api-local',
    logStreamName: 'local',
    getRemainingTimeInMillis: () => Math.max(0, deadline - Date.now()),
    done: () => undefined,
    fail: () => undefined,
    succeed: () => undefined,
  };
}

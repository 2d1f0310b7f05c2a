/**
 * The model double's Bedrock InvokeModel route (`local/model-server/bedrock-api.ts`) over
 * HTTP: the Messages API body for the path's model, Bedrock's auth and body checks in its
 * error shape, and script steps with Bedrock's statuses and exception names.
 */
import { describe, expect, it } from 'vitest';
import { BEDROCK_ANTHROPIC_VERSION } from '../../local/model-server/bedrock-protocol.js';
import { fault } from '../../local/model-server/faults.js';
import type { ModelServer } from '../../local/model-server/server.js';
import { usePongModelServer } from '../support/model-adapters.js';

const BEDROCK_MODEL = 'anthropic.claude-sonnet-4-6';
const REGION = 'eu-west-1';
let server: ModelServer;

usePongModelServer((started) => (server = started));

describe('Function: startModelServer (Bedrock InvokeModel)', () => {
  const path = `/model/${BEDROCK_MODEL}/invoke`;
  const signed = {
    authorization: `AWS4-HMAC-SHA256 Credential=AKID/20260101/${REGION}/bedrock/aws4_request, SignedHeaders=host;x-amz-date, Signature=${'a'.repeat(64)}`,
    'x-amz-date': '20260101T000000Z',
  };
  const valid = {
    anthropic_version: BEDROCK_ANTHROPIC_VERSION,
    max_tokens: 10,
    messages: [{ role: 'user', content: 'hi' }],
  };

  async function post(body: unknown, headers: Record<string, string>, to = path) {
    const response = await fetch(`${server.url}${to}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', ...headers },
      body: JSON.stringify(body),
    });
    return {
      status: response.status,
      body: (await response.json()) as unknown,
      errorType: response.headers.get('x-amzn-errortype')?.split(':')[0],
      headers: response.headers,
    };
  }

  it('answers with the Messages API body and the model of the path', async () => {
    const { status, body, headers } = await post(valid, signed);
    expect(status).toBe(200);
    expect(body).toMatchObject({
      type: 'message',
      model: BEDROCK_MODEL,
      content: [{ type: 'text', text: 'pong' }],
      usage: { input_tokens: 1, output_tokens: 1 },
    });
    expect(headers.get('x-amzn-bedrock-output-token-count')).toBe('1');
    expect(headers.get('x-amzn-requestid')).toEqual(expect.any(String));
  });

  it('accepts a Bedrock API key instead of a signature, recording no SigV4 scope', async () => {
    expect((await post(valid, { authorization: 'Bearer bedrock-api-key' })).status).toBe(200);
    expect(server.requests[0]?.sigV4).toBeUndefined();
  });

  it('refuses what Bedrock refuses, in its error shape', async () => {
    expect(await post(valid, {})).toMatchObject({
      status: 403,
      errorType: 'MissingAuthenticationTokenException',
      body: { message: 'Missing Authentication Token' },
    });
    expect(
      await post(valid, {
        ...signed,
        authorization: signed.authorization.replace('/bedrock/', '/s3/'),
      }),
    ).toMatchObject({ status: 403, errorType: 'InvalidSignatureException' });
    expect(await post(valid, { authorization: signed.authorization })).toMatchObject({
      status: 403,
      errorType: 'IncompleteSignatureException',
    });
    const unversioned = { max_tokens: valid.max_tokens, messages: valid.messages };
    expect(await post(unversioned, signed)).toMatchObject({
      status: 400,
      errorType: 'ValidationException',
      body: { message: expect.stringContaining('required key [anthropic_version] not found') },
    });
    expect(await post({ ...valid, anthropic_version: '2023-06-01' }, signed)).toMatchObject({
      status: 400,
      errorType: 'ValidationException',
    });
    expect(await post({ ...valid, model: BEDROCK_MODEL }, signed)).toMatchObject({
      status: 400,
      body: { message: expect.stringContaining('extraneous key [model]') },
    });
    expect(await post({ ...valid, max_tokens: 0 }, signed)).toMatchObject({
      status: 400,
      errorType: 'ValidationException',
      body: { message: 'max_tokens: must be a positive integer' },
    });
    expect(await post(valid, signed, `/model/${BEDROCK_MODEL}/converse`)).toMatchObject({
      status: 404,
    });
    expect(server.requests.map((received) => received.protocol)).toEqual([
      ...Array<string>(7).fill('bedrock'),
      undefined,
    ]);
  });

  it('answers script steps with Bedrock statuses and exception names', async () => {
    server.script(
      fault.rateLimited(3),
      fault.overloaded(),
      fault.serverError(),
      fault.status(401),
      fault.bedrock('ModelNotReadyException'),
    );
    const limited = await post(valid, signed);
    expect(limited).toMatchObject({ status: 429, errorType: 'ThrottlingException' });
    expect(limited.headers.get('retry-after')).toBe('3');
    expect(await post(valid, signed)).toMatchObject({
      status: 503,
      errorType: 'ServiceUnavailableException',
      body: { message: 'Overloaded' },
    });
    expect(await post(valid, signed)).toMatchObject({
      status: 500,
      errorType: 'InternalServerException',
    });
    expect(await post(valid, signed)).toMatchObject({
      status: 403,
      errorType: 'UnrecognizedClientException',
    });
    expect(await post(valid, signed)).toMatchObject({
      status: 429,
      errorType: 'ModelNotReadyException',
    });
    expect(server.pending()).toBe(0);
  });
});

/**
 * The two APIs the model double speaks, without HTTP (`local/model-server/routes.ts`,
 * `messages-api.ts`, `bedrock-api.ts`): which route a request takes, what each admits or
 * refuses, and how each shapes a scripted error and an answer's headers.
 */
import { describe, expect, it } from 'vitest';
import { fault } from '../../local/model-server/faults.js';
import { routeOf } from '../../local/model-server/routes.js';
import type { ErrorStep } from '../../local/model-server/script.js';

const MODEL = 'anthropic.claude-sonnet-4-6';
const body = { max_tokens: 10, messages: [{ role: 'user', content: 'hi' }] };
const signed = {
  authorization: `AWS4-HMAC-SHA256 Credential=AKID/20260101/eu-west-1/bedrock/aws4_request, SignedHeaders=host;x-amz-date, Signature=${'a'.repeat(64)}`,
  'x-amz-date': '20260101T000000Z',
};
const usage = { input_tokens: 3, output_tokens: 5 };

function messages(apiKey?: string) {
  const api = routeOf('POST', '/v1/messages', apiKey);
  if (!api) throw new Error('no Messages API route');
  return api;
}

function bedrock() {
  const api = routeOf('POST', `/model/${encodeURIComponent(MODEL)}/invoke`, undefined);
  if (!api) throw new Error('no Bedrock route');
  return api;
}

describe('Function: routeOf', () => {
  it('routes POST /v1/messages and POST /model/{id}/invoke, and nothing else', () => {
    // Act / Assess
    expect(messages()).toMatchObject({ protocol: 'messages' });
    expect(bedrock()).toMatchObject({ protocol: 'bedrock', modelId: MODEL });
    expect(routeOf('GET', '/v1/messages', undefined)).toBeUndefined();
    expect(routeOf('POST', '/v1/complete', undefined)).toBeUndefined();
    expect(routeOf('POST', `/model/${MODEL}/converse`, undefined)).toBeUndefined();
  });
});

describe('Function: messagesApi', () => {
  const headers = { 'x-api-key': 'k', 'anthropic-version': '2023-06-01' };

  it('admits a keyed, versioned, valid request with its body as it came', () => {
    // Prepare
    const request = { model: 'claude-sonnet-4-6', ...body };

    // Act
    const admission = messages().admit(headers, request);

    // Assess
    expect(admission).toEqual({ admitted: true, body: request });
  });

  it('takes the key from a Bearer authorization, and checks it when one is configured', () => {
    // Prepare
    const request = { model: 'claude-sonnet-4-6', ...body };
    const bearer = { authorization: 'Bearer right', 'anthropic-version': '2023-06-01' };

    // Act / Assess
    expect(messages('right').admit(bearer, request)).toMatchObject({ admitted: true });
    expect(messages('other').admit(bearer, request)).toMatchObject({
      admitted: false,
      refusal: { status: 401, body: { error: { message: 'invalid x-api-key' } } },
    });
  });

  it('refuses in its own error shape', () => {
    // Act
    const admission = messages().admit(headers, { ...body, model: '' });

    // Assess
    expect(admission).toEqual({
      admitted: false,
      refusal: {
        status: 400,
        body: {
          type: 'error',
          error: { type: 'invalid_request_error', message: 'model: field required' },
        },
      },
    });
  });

  it("shapes a scripted error with the status's type unless the step names one", () => {
    // Prepare
    const overloaded = fault.overloaded() as ErrorStep;
    const custom = fault.status(418, { type: 'teapot_error' }) as ErrorStep;

    // Act / Assess
    expect(messages().scriptedError(overloaded)).toMatchObject({
      status: 529,
      body: { error: { type: 'overloaded_error', message: 'Overloaded' } },
    });
    expect(messages().scriptedError(custom)).toMatchObject({
      status: 418,
      body: { error: { type: 'teapot_error', message: 'scripted 418' } },
    });
    expect(messages().answerHeaders(usage)['request-id']).toMatch(/^req_offline_/);
  });
});

describe('Function: bedrockApi', () => {
  const versioned = { anthropic_version: 'bedrock-2023-05-31', ...body };

  it("admits a signed request with the path's model in the body, recording the scope", () => {
    // Act
    const admission = bedrock().admit(signed, versioned);

    // Assess
    expect(admission).toMatchObject({
      admitted: true,
      body: { ...versioned, model: MODEL },
      sigV4: { accessKeyId: 'AKID', region: 'eu-west-1', service: 'bedrock' },
    });
  });

  it('records the scope of a signed request whose body it then refuses', () => {
    // Act
    const admission = bedrock().admit(signed, { ...versioned, max_tokens: 0 });

    // Assess
    expect(admission).toMatchObject({
      admitted: false,
      sigV4: { accessKeyId: 'AKID' },
      refusal: {
        status: 400,
        body: { message: 'max_tokens: must be a positive integer' },
        headers: { 'x-amzn-errortype': expect.stringMatching(/^ValidationException:/) },
      },
    });
  });

  it('refuses an unsigned request before reading its body', () => {
    // Act
    const admission = bedrock().admit({}, 'not even JSON');

    // Assess
    expect(admission).toMatchObject({ admitted: false, refusal: { status: 403 } });
    expect(admission).not.toHaveProperty('sigV4');
  });

  it("shapes a scripted error in Bedrock's statuses, keeping the step's headers", () => {
    // Prepare
    const limited = fault.rateLimited(2) as ErrorStep;

    // Act
    const answer = bedrock().scriptedError(limited);

    // Assess
    expect(answer).toMatchObject({
      status: 429,
      headers: {
        'retry-after': '2',
        'x-amzn-errortype': expect.stringMatching(/^ThrottlingException:/),
      },
    });
    expect(bedrock().answerHeaders(usage)).toMatchObject({
      'x-amzn-bedrock-input-token-count': '3',
      'x-amzn-bedrock-output-token-count': '5',
    });
  });
});

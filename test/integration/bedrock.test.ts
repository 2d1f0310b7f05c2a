/**
 * BedrockModelClient with the real `@anthropic-ai/bedrock-sdk` against the model double's
 * Bedrock route (local/model-server/): InvokeModel's path and body, SigV4 signing, the
 * shared retry policy over Bedrock's error statuses, and the model-id mapping.
 */
import { describe, expect, it } from 'vitest';
import {
  BEDROCK_ANTHROPIC_VERSION,
  BedrockModelClient,
  type BedrockModelClientOptions,
} from '../../lambdas/adapters/bedrock.js';
import {
  ModelRequestRejectedError,
  ModelUnavailableError,
} from '../../lambdas/adapters/model-retry.js';
import { RalphError, TransientError } from '../../lambdas/core/errors.js';
import type { ModelRequest } from '../../lambdas/ports.js';
import { fault } from '../../local/model-server/faults.js';
import type { ModelServer } from '../../local/model-server/server.js';
import { failureOf, modelRequest, usePongModelServer } from '../support/model-adapters.js';
import { itTimesOutAndStopsOnAbort } from '../support/model-timeouts.js';

const BEDROCK_MODEL = 'anthropic.claude-sonnet-4-6';
const REGION = 'eu-west-1';
const CREDENTIALS = { accessKeyId: 'AKIDBEDROCKTEST', secretAccessKey: 'not-a-real-secret' };
let server: ModelServer;

usePongModelServer((started) => (server = started));

function client(options: Partial<BedrockModelClientOptions> = {}): BedrockModelClient {
  return new BedrockModelClient({
    region: REGION,
    credentials: CREDENTIALS,
    baseURL: server.url,
    backoff: { initialDelayMs: 2, maxDelayMs: 10 },
    ...options,
  });
}

const request = (overrides: Partial<ModelRequest> = {}) => modelRequest(BEDROCK_MODEL, overrides);

describe('Class: BedrockModelClient', () => {
  describe('Method: complete', () => {
    it('invokes the model through InvokeModel and returns text, usage, model and one attempt', async () => {
      // Act
      const response = await client().complete(request());

      // Assess
      expect(response).toEqual({
        text: 'pong',
        model: BEDROCK_MODEL,
        stopReason: 'end_turn',
        usage: { inputTokens: 6, outputTokens: 1 },
        attempts: 1,
      });
      const [received] = server.requests;
      expect(received).toMatchObject({
        method: 'POST',
        path: `/model/${BEDROCK_MODEL}/invoke`,
        protocol: 'bedrock',
        modelId: BEDROCK_MODEL,
        status: 200,
      });
      expect(received?.body).toEqual({
        anthropic_version: BEDROCK_ANTHROPIC_VERSION,
        max_tokens: 64,
        system: 'Answer in one word.',
        messages: [{ role: 'user', content: 'ping' }],
      });
      expect(received?.headers['anthropic-version']).toBeUndefined();
      expect(received?.headers['x-stainless-retry-count']).toBe('0');
    });

    it('signs with SigV4 for the bedrock service in the region, with the given credentials', async () => {
      // Act
      await client().complete(request());

      // Assess
      const [received] = server.requests;
      expect(received?.headers.authorization).toMatch(
        new RegExp(
          `^AWS4-HMAC-SHA256 Credential=${CREDENTIALS.accessKeyId}/\\d{8}/${REGION}/bedrock/aws4_request, SignedHeaders=[^,]+, Signature=[0-9a-f]{64}$`,
        ),
      );
      expect(received?.sigV4).toMatchObject({
        algorithm: 'AWS4-HMAC-SHA256',
        accessKeyId: CREDENTIALS.accessKeyId,
        region: REGION,
        service: 'bedrock',
      });
      expect(received?.sigV4?.signedHeaders).toEqual(
        expect.arrayContaining(['host', 'x-amz-date']),
      );
      expect(received?.headers['x-amz-security-token']).toBeUndefined();
    });

    it('sends a session token with temporary credentials', async () => {
      await client({ credentials: { ...CREDENTIALS, sessionToken: 'session-token' } }).complete(
        request(),
      );
      expect(server.requests[0]?.headers['x-amz-security-token']).toBe('session-token');
      expect(server.requests[0]?.sigV4?.signedHeaders).toContain('x-amz-security-token');
    });

    it('sends a temperature only when asked to', async () => {
      await client().complete(request({ temperature: 0.2 }));
      await client().complete(request());
      expect(server.requests[0]?.body).toMatchObject({ temperature: 0.2 });
      expect(server.requests[1]?.body).not.toHaveProperty('temperature');
    });

    it('maps a configured model id to its Bedrock id in the path', async () => {
      // Prepare
      const mapped = client({
        modelIds: { 'claude-sonnet-4-6': 'us.anthropic.claude-sonnet-4-6' },
      });

      // Act
      const response = await mapped.complete(request({ model: 'claude-sonnet-4-6' }));

      // Assess
      expect(server.requests[0]?.path).toBe('/model/us.anthropic.claude-sonnet-4-6/invoke');
      expect(response.model).toBe('us.anthropic.claude-sonnet-4-6');
    });

    it('passes an unmapped model id through, inherited object keys included', async () => {
      // Prepare
      const mapped = client({
        modelIds: { 'claude-sonnet-4-6': 'us.anthropic.claude-sonnet-4-6' },
      });

      // Act
      await mapped.complete(request({ model: 'claude-sonnet-4-6-x' }));
      await mapped.complete(request({ model: 'constructor' }));

      // Assess
      expect(server.requests.map((received) => received.path)).toEqual([
        '/model/claude-sonnet-4-6-x/invoke',
        '/model/constructor/invoke',
      ]);
    });

    it('sends a versioned id as it is and an inference-profile ARN percent-encoded', async () => {
      // Prepare
      const versioned = 'anthropic.claude-3-5-sonnet-20240620-v1:0';
      const profile =
        'arn:aws:bedrock:us-east-1:123456789012:inference-profile/us.anthropic.claude-sonnet-4-6';

      // Act
      await client().complete(request({ model: versioned }));
      await client().complete(request({ model: profile }));

      // Assess
      expect(server.requests[0]).toMatchObject({
        path: `/model/${versioned}/invoke`,
        modelId: versioned,
        status: 200,
      });
      expect(server.requests[1]).toMatchObject({
        path: `/model/${encodeURIComponent(profile).replaceAll('%3A', ':')}/invoke`,
        modelId: profile,
        status: 200,
      });
    });

    it('retries a 429 ThrottlingException and reports two attempts', async () => {
      // Prepare
      server.script(fault.rateLimited());

      // Act
      const response = await client().complete(request());

      // Assess
      expect(response).toMatchObject({ text: 'pong', attempts: 2 });
      expect(server.requests.map((received) => received.status)).toEqual([429, 200]);
    });

    it('retries a ModelNotReadyException', async () => {
      server.script(fault.bedrock('ModelNotReadyException', 'Model is not ready'));
      const response = await client().complete(request());
      expect(response.attempts).toBe(2);
      expect(server.requests.map((received) => received.status)).toEqual([429, 200]);
    });

    it('retries an overloaded model, which Bedrock answers with 503', async () => {
      server.script(fault.overloaded());
      const response = await client().complete(request());
      expect(response.attempts).toBe(2);
      expect(server.requests.map((received) => received.status)).toEqual([503, 200]);
    });

    it('retries a 500 InternalServerException', async () => {
      server.script(fault.serverError());
      await expect(client().complete(request())).resolves.toMatchObject({ attempts: 2 });
    });

    it('throws ModelUnavailableError with the status after three 503s', async () => {
      // Prepare
      const unavailable = fault.bedrock('ServiceUnavailableException', 'Service unavailable');
      server.script(unavailable, unavailable, unavailable, unavailable);

      // Act
      const error = await failureOf(client().complete(request()));

      // Assess
      expect(error).toBeInstanceOf(ModelUnavailableError);
      expect(error).toBeInstanceOf(TransientError);
      expect(error.name).toBe('TransientError');
      expect(error).toMatchObject({ code: 'TRANSIENT', status: 503, attempts: 3 });
      expect(error.message).toBe(
        `model ${BEDROCK_MODEL} unavailable after 3 tries: 503 ServiceUnavailableException: Service unavailable`,
      );
      expect(server.requests).toHaveLength(3);
      expect(server.pending()).toBe(1);
    });

    it('honours maxTries', async () => {
      server.script(fault.rateLimited(), fault.rateLimited());
      const error = await failureOf(client({ maxTries: 2 }).complete(request()));
      expect(error).toMatchObject({ status: 429, attempts: 2 });
      expect(server.requests).toHaveLength(2);
    });

    it('does not retry a 400 ValidationException', async () => {
      // Prepare
      server.script(
        fault.bedrock('ValidationException', 'The provided model identifier is invalid.'),
      );
      const mapped = client({
        modelIds: { 'claude-sonnet-4-6': 'us.anthropic.claude-sonnet-4-6' },
      });

      // Act
      const error = await failureOf(mapped.complete(request({ model: 'claude-sonnet-4-6' })));

      // Assess
      expect(error).toBeInstanceOf(ModelRequestRejectedError);
      expect(error).toBeInstanceOf(RalphError);
      expect(error).not.toBeInstanceOf(TransientError);
      expect(error).toMatchObject({ code: 'MODEL_REQUEST_REJECTED', status: 400 });
      expect(error.message).toBe(
        'model claude-sonnet-4-6 (Bedrock us.anthropic.claude-sonnet-4-6) refused the request: 400 ValidationException: The provided model identifier is invalid.',
      );
      expect(server.requests).toHaveLength(1);
    });

    it('does not retry a 403 AccessDeniedException', async () => {
      server.script(
        fault.bedrock(
          'AccessDeniedException',
          'You do not have access to the model with the specified model ID.',
        ),
      );
      const error = await failureOf(client().complete(request()));
      expect(error).toBeInstanceOf(ModelRequestRejectedError);
      expect(error).toMatchObject({ status: 403 });
      expect(error.message).toContain('403 AccessDeniedException: You do not have access');
      expect(server.requests).toHaveLength(1);
    });

    itTimesOutAndStopsOnAbort(
      () => server,
      (overrides) => client().complete(request(overrides)),
    );

    it('needs a region or a client', () => {
      expect(() => new BedrockModelClient({ credentials: CREDENTIALS })).toThrow(
        'needs a region or a client',
      );
    });
  });
});

import { describe, expect, it } from 'vitest';
import { anthropicBaseUrl } from '../../lambdas/adapters/anthropic-base-url.js';
import { ConfigurationError } from '../../lambdas/core/errors.js';
import type { ModelServer } from '../../local/model-server/server.js';
import { localModel } from '../../local/local-model.js';
import { modelRequest, usePongModelServer } from '../support/model-adapters.js';

describe('ANTHROPIC_BASE_URL', () => {
  let server: ModelServer;
  usePongModelServer((started) => {
    server = started;
  });

  it('points the real Anthropic adapter at a gateway speaking the Messages API', async () => {
    // Arrange
    const { model, label } = localModel({
      ANTHROPIC_API_KEY: 'sk-ant-test',
      ANTHROPIC_BASE_URL: `${server.url}/`,
    });

    // Act
    const answer = await model.complete(modelRequest('claude-sonnet-4-6'));

    // Assess
    expect(answer.text).toBe('pong');
    expect(label).toContain(`Anthropic API at ${server.url}/`);
  });

  it('refuses a value that is not an http(s) URL, naming it', () => {
    expect(() => anthropicBaseUrl({ ANTHROPIC_BASE_URL: 'api.example.com' })).toThrow(
      ConfigurationError,
    );
    expect(() => anthropicBaseUrl({ ANTHROPIC_BASE_URL: 'ftp://gateway' })).toThrow(
      /ANTHROPIC_BASE_URL "ftp:\/\/gateway" is not an http\(s\) URL/,
    );
    expect(anthropicBaseUrl({})).toEqual({});
  });
});

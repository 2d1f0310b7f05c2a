import { describe, expect, it } from 'vitest';
import { untrustedEnvironment } from '../../agent/process/environment.js';

describe('Function: untrustedEnvironment', () => {
  it("leaves out the runner's credentials and configuration, and keeps the rest", () => {
    // Act
    const env = untrustedEnvironment({
      AWS_ACCESS_KEY_ID: 'AKIA',
      AWS_SECRET_ACCESS_KEY: 'secret',
      AWS_SESSION_TOKEN: 'session',
      AWS_CONTAINER_CREDENTIALS_RELATIVE_URI: '/v2/credentials/x',
      AWS_CONTAINER_AUTHORIZATION_TOKEN: 'token',
      AWS_ENDPOINT_URL: 'http://127.0.0.1:1',
      AWS_REGION: 'eu-west-1',
      aws_profile: 'lower case too',
      ECS_CONTAINER_METADATA_URI: 'http://169.254.170.2/v3/x',
      ECS_CONTAINER_METADATA_URI_V4: 'http://169.254.170.2/v4/x',
      GIT_TOKEN: 'ghp',
      TABLE_NAME: 'table',
      BUCKET_NAME: 'bucket',
      ANTHROPIC_API_KEY: 'sk-ant',
      PATH: '/usr/bin',
      HOME: '/home/agent',
      AWSOME: 'not an AWS_ variable',
      UNSET: undefined,
    });

    // Assess
    expect(env).toEqual({
      ANTHROPIC_API_KEY: 'sk-ant',
      PATH: '/usr/bin',
      HOME: '/home/agent',
      AWSOME: 'not an AWS_ variable',
    });
  });
});

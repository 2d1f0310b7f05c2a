/** The GitHub credentials the pull-request step reads from its secret's text. */
import { describe, expect, it } from 'vitest';
import { credentialsOf } from '../../lambdas/adapters/github/secret-code-host.js';
import { ConfigurationError } from '../../lambdas/core/errors.js';

const SECRET = 'arn:aws:secretsmanager:eu-west-1:123456789012:secret:github';

describe('Function: credentialsOf', () => {
  it('takes a bare token, and the JSON of a token or of a GitHub App', () => {
    // Act & Assess
    expect(credentialsOf('ghp_abc', SECRET)).toEqual({ kind: 'token', token: 'ghp_abc' });
    expect(credentialsOf('{"kind":"token","token":"t"}', SECRET)).toEqual({
      kind: 'token',
      token: 't',
    });
    const app = {
      kind: 'app',
      appId: 12,
      installationId: 34,
      privateKeyPem: '-----BEGIN RSA PRIVATE KEY-----\n...',
    };
    expect(credentialsOf(JSON.stringify(app), SECRET)).toEqual(app);
  });

  it('names the secret and the missing fields, never the values', () => {
    // Act
    const attempt = () =>
      credentialsOf('{"kind":"app","appId":12,"privateKeyPem":"s3cr3t-not-a-key"}', SECRET);

    // Assess
    expect(attempt).toThrow(ConfigurationError);
    expect(attempt).toThrow(/secret arn:aws:secretsmanager.*installationId/);
    expect(attempt).not.toThrow(/s3cr3t/);
    expect(() => credentialsOf('{not json', SECRET)).toThrow(/starts like JSON but is not JSON/);
  });
});

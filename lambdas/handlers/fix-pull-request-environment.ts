/**
 * The pull-request step's ports in a deployed Lambda: the loop's, the fix pull request
 * records (the run table), and GitHub with the credentials in the secret named by
 * GITHUB_SECRET_ARN (read on first use), at GITHUB_API_URL (GitHub Enterprise:
 * `https://HOST/api/v3`; default api.github.com). Without GITHUB_SECRET_ARN there is no
 * code host: fixes are refused with that reason.
 */
import { DynamoFixPullRequests } from '../adapters/dynamodb/fix-pull-requests.js';
import { DynamoIncidentStore } from '../adapters/dynamodb/incident-store.js';
import { secretCodeHost } from '../adapters/github/secret-code-host.js';
import { createDynamoDocumentClient, createSecretsClient } from '../adapters/aws-clients.js';
import type { FixPullRequestDeps } from '../core/steps/fix-pull-request-deps.js';
import { depsFromEnvironment, required } from './store-environment.js';

let cached: FixPullRequestDeps | undefined;

export function fixPullRequestDepsFromEnvironment(): FixPullRequestDeps {
  if (cached) return cached;
  const secretArn = process.env.GITHUB_SECRET_ARN;
  const apiBaseUrl = process.env.GITHUB_API_URL;
  const client = createDynamoDocumentClient({});
  const tableName = required('TABLE_NAME');
  cached = {
    ...depsFromEnvironment(),
    fixPullRequests: new DynamoFixPullRequests({ client, tableName }),
    incidents: new DynamoIncidentStore({ client, tableName }),
    ...(secretArn
      ? {
          codeHost: secretCodeHost(createSecretsClient({}), secretArn, {
            ...(apiBaseUrl ? { apiBaseUrl } : {}),
          }),
        }
      : {}),
  };
  return cached;
}

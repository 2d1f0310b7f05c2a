/**
 * `ralph show RUN --endpoint URL` for an investigate run: the report comes through the Run
 * API's run-artefact route (`GET /runs/{id}/artefacts/{name}`), as it does locally.
 */
import { randomBytes } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { investigationReport } from '../../lambdas/core/investigate/investigation-report.js';
import { artefactKeys } from '../../lambdas/core/shared/artefact-keys.js';
import { startApiServer, type ApiServer } from '../../local/api-server/api-server.js';
import { writeServeFile } from '../../local/api-server/serve-file.js';
import { localApiEntry } from '../../local/local-api.js';
import { openLocalStack, type LocalStack } from '../../local/local-stack.js';
import { runCli } from '../support/cli.js';
import { makeInvestigationResult, makeRunInvestigation } from '../support/investigation-records.js';
import { makeRun, makeTask } from '../support/records.js';

describe('CLI: ralph show RUN --endpoint (an investigate run)', () => {
  let stack: LocalStack;
  let server: ApiServer;
  let dataDir: string;
  const runId = 'r20260302-090000-endpnt';

  beforeAll(async () => {
    dataDir = await mkdtemp(join(tmpdir(), 'ralph-cli-endpoint-investigation-'));
    stack = await openLocalStack({ retryIntervalMs: 0 });
    const credential = {
      accessKeyId: `RALPHLOCAL${randomBytes(4).toString('hex').toUpperCase()}`,
      secretAccessKey: randomBytes(24).toString('base64url'),
    };
    const { region } = stack.endpoints;
    server = await startApiServer({ entry: localApiEntry(stack), credential, region });
    await writeServeFile(dataDir, { endpoint: server.url, region, ...credential });
    const investigation = makeRunInvestigation();
    await stack.deps.runs.createRun(
      makeRun({ runId, status: 'completed', storiesTotal: 1, investigation }),
      [makeTask({ runId, taskId: 'ERR-1', title: 'Investigate: TypeError' })],
    );
    const report = investigationReport(runId, investigation, [
      {
        iteration: 1,
        taskId: 'ERR-1',
        investigation: makeInvestigationResult(),
        outcome: {
          runId,
          iteration: 1,
          taskId: 'ERR-1',
          verdict: 'fix-verified',
          outcome: 'opened',
          pullRequest: {
            number: 3,
            htmlUrl: 'https://github.example/acme/shop/pull/3',
            draft: true,
          },
        },
      },
    ]);
    await stack.deps.artefacts.put(
      artefactKeys.runArtefact(runId, 'investigation-report.json'),
      JSON.stringify(report),
    );
  });

  afterAll(async () => {
    await server.close();
    await stack.close();
    await rm(dataDir, { recursive: true, force: true });
  });

  it('shows the report read through the API', async () => {
    // Act
    const result = await runCli(['show', runId, '--endpoint', server.url, '--data-dir', dataDir]);

    // Assess
    expect(result.exitCode, result.stderr).toBe(0);
    expect(result.stdout).toContain('investigation  1 of 1 errors analysed');
    expect(result.stdout).toContain('1 pull request(s) opened');
    expect(result.stdout).toContain('#3 https://github.example/acme/shop/pull/3 (draft)');
  });
});

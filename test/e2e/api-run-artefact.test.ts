/**
 * GET /runs/{id}/artefacts/{name} on the local server: a run's own files (here an
 * investigate run's report) through a presigned URL, and the refusals of a name that is not
 * one, a file not written yet and a run that does not exist.
 */
import { describe, expect, it } from 'vitest';
import { artefactKeys } from '../../lambdas/core/shared/artefact-keys.js';
import { useApiServer } from '../support/api-server.js';
import { makeRunInvestigation } from '../support/investigation-records.js';
import { makeRun } from '../support/records.js';

describe('Run API: a run’s own artefacts', () => {
  const api = useApiServer();
  const runId = 'r20260302-090000-report';

  async function storeRun(withReport: boolean): Promise<void> {
    const { deps } = api().stack;
    if (await deps.runs.getRun(runId)) return;
    await deps.runs.createRun(
      makeRun({ runId, status: 'completed', investigation: makeRunInvestigation() }),
      [],
    );
    if (withReport)
      await deps.artefacts.put(
        artefactKeys.runArtefact(runId, 'investigation-report.json'),
        JSON.stringify({ runId, errorsAnalysed: 1 }),
      );
  }

  it('redirects to the investigation report with a presigned URL', async () => {
    // Arrange
    await storeRun(true);

    // Act
    const answer = await api().call('GET', `/runs/${runId}/artefacts/investigation-report.json`);
    const report = await fetch(new URL(answer.headers.location!));

    // Assess
    expect(answer.status).toBe(302);
    expect(await report.json()).toEqual({ runId, errorsAnalysed: 1 });
  });

  it('refuses a name that is not a run artefact (400), a file not written (404), an unknown run (404)', async () => {
    // Arrange
    await storeRun(true);

    // Act
    const badName = await api().call('GET', `/runs/${runId}/artefacts/secrets.txt`);
    const notYet = await api().call('GET', `/runs/${runId}/artefacts/convergence-proof.json`);
    const noRun = await api().call('GET', '/runs/r20260302-nope/artefacts/summary.json');

    // Assess
    expect(badName.status).toBe(400);
    expect(badName.json.detail).toContain('not one of the run');
    expect(notYet.status).toBe(404);
    expect(notYet.json.detail).toBe(`run ${runId} has no convergence-proof.json (yet)`);
    expect(noRun.status).toBe(404);
  });
});

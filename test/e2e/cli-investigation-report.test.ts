/**
 * `ralph show RUN` for an investigate run: its report in a short block, in `--json`, and as
 * an artefact. The run and its report are stored as the loop leaves them (a data dir of
 * this file's own), the CLI is the real one.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { investigationReport } from '../../lambdas/core/investigate/investigation-report.js';
import type { InvestigationReport } from '../../lambdas/core/schemas/investigation-report.js';
import { artefactKeys } from '../../lambdas/core/shared/artefact-keys.js';
import { openLocalStack } from '../../local/local-stack.js';
import { jsonOf, runCli } from '../support/cli.js';
import { makeInvestigationResult, makeRunInvestigation } from '../support/investigation-records.js';
import { makeRun, makeTask } from '../support/records.js';

const ENDED = '2026-03-02T10:00:00.000Z';

describe('CLI: ralph show RUN (an investigate run)', () => {
  let dataDir: string;
  const ended = 'inv-ended';
  const going = 'inv-going';

  beforeAll(async () => {
    dataDir = await mkdtemp(join(tmpdir(), 'ralph-e2e-investigation-'));
    const stack = await openLocalStack({ dataDir });
    try {
      const investigation = makeRunInvestigation();
      for (const [runId, status] of [
        [ended, 'completed'],
        [going, 'paused'],
      ] as const)
        await stack.deps.runs.createRun(
          makeRun({
            runId,
            status,
            storiesTotal: 1,
            investigation,
            ...(status === 'completed' ? { endedAt: ENDED } : {}),
          }),
          [makeTask({ runId, taskId: 'ERR-1', title: 'Investigate: TypeError' })],
        );
      const report = investigationReport(ended, investigation, [
        {
          iteration: 1,
          taskId: 'ERR-1',
          investigation: makeInvestigationResult(),
          outcome: {
            runId: ended,
            iteration: 1,
            taskId: 'ERR-1',
            verdict: 'fix-verified',
            outcome: 'refused',
            reason: 'the cap is 1\u001b]0;pwned\u0007',
          },
        },
      ]);
      await stack.deps.artefacts.put(
        artefactKeys.runArtefact(ended, 'investigation-report.json'),
        JSON.stringify(report),
      );
    } finally {
      await stack.close();
    }
  });

  afterAll(async () => {
    await rm(dataDir, { recursive: true, force: true });
  });

  it('shows the report in a short block, control bytes made safe', async () => {
    // Act
    const result = await runCli(['show', ended, '--data-dir', dataDir]);

    // Assess
    expect(result.exitCode, result.stderr).toBe(0);
    expect(result.stdout).toContain('investigation  1 of 1 errors analysed');
    expect(result.stdout).toContain('0 pull request(s) opened');
    expect(result.stdout).toContain('1,000 in / 200 out tokens, $0.02');
    expect(result.stdout).toMatch(/ERR-1\s*│\s*fix-verified\s*│\s*high\s*│\s*none: the cap is 1/);
    expect(result.stdout).not.toContain('\u001b]0;pwned');
    expect(result.stdout).toContain('\\x1b]0;pwned\\x07');
  });

  it('carries the report in --json, and prints it as an artefact', async () => {
    // Act
    const shown = jsonOf<{ investigationReport: InvestigationReport }>(
      await runCli(['show', ended, '--json', '--data-dir', dataDir]),
    );
    const artefact = await runCli([
      'show',
      ended,
      '--artefact',
      'investigation-report.json',
      '--data-dir',
      dataDir,
    ]);

    // Assess
    expect(shown.investigationReport).toMatchObject({ runId: ended, errorsAnalysed: 1 });
    expect(artefact.exitCode).toBe(0);
    expect(JSON.parse(artefact.stdout)).toEqual(shown.investigationReport);
  });

  it('says a run that has not ended has no report yet', async () => {
    // Act
    const result = await runCli(['show', going, '--data-dir', dataDir]);
    const json = jsonOf<{ investigationReport: null }>(
      await runCli(['show', going, '--json', '--data-dir', dataDir]),
    );

    // Assess
    expect(result.exitCode, result.stderr).toBe(0);
    expect(result.stdout).toContain(
      'investigation  no report yet (it is written when the run ends)',
    );
    expect(json.investigationReport).toBeNull();
  });
});

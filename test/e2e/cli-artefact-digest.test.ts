import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RunRecord } from '../../lambdas/core/schemas/run.js';
import { completeOneRun, jsonOf, runCli } from '../support/cli.js';

/** An artefact whose bytes changed on disk is refused, not shown. */
describe('CLI: ralph show --artefact of a changed artefact', () => {
  let dataDir: string;
  let runId: string;
  beforeAll(async () => {
    dataDir = await mkdtemp(join(tmpdir(), 'ralph-cli-digest-'));
    await completeOneRun(dataDir);
    runId = jsonOf<{ runs: RunRecord[] }>(await runCli(['runs', '--json', '--data-dir', dataDir]))
      .runs[0]!.runId;
  });
  afterAll(async () => {
    await rm(dataDir, { recursive: true, force: true });
  });

  const show = (name: string) =>
    runCli(['show', runId, '--iteration', '1', '--artefact', name, '--data-dir', dataDir]);

  it('refuses the changed artefact, naming it and what to do, and still shows the others', async () => {
    // Prepare: s3rver keeps an object's bytes in `<key>._S3rver_object`.
    const before = await show('prompt.md');
    const file = join(
      dataDir,
      's3',
      'ralph-artefacts',
      `runs/${runId}/iterations/1/prompt.md._S3rver_object`,
    );
    await writeFile(file, before.stdout.replace('US-001', 'US-999'));

    // Act
    const changed = await show('prompt.md');
    const untouched = await show('diff.patch');

    // Assess
    expect(before.exitCode, before.stderr).toBe(0);
    expect(changed.exitCode).toBe(4);
    expect(changed.stdout).toBe('');
    expect(changed.stderr).toMatch(
      new RegExp(
        `artefact prompt\\.md of run ${runId}, iteration 1 changed after it was written .*restore its bytes`,
      ),
    );
    expect(untouched.exitCode, untouched.stderr).toBe(0);
    expect(untouched.stdout).toContain('US-001.txt');
  });
});

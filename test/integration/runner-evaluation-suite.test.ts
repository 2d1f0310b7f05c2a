import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { runIteration, type RunnerDeps } from '../../agent/runner.js';
import type { S3ArtefactStore } from '../../lambdas/adapters/s3.js';
import { artefactKeys } from '../../lambdas/core/shared/artefact-keys.js';
import { DocumentArtefactSchema } from '../../lambdas/core/schemas/evaluation.js';
import { IterationResultSchema } from '../../lambdas/core/schemas/iteration-result.js';
import { type RunConfigInput } from '../../lambdas/core/schemas/config.js';
import { git } from '../support/git-repo.js';
import {
  exists,
  failingPuts,
  scenario,
  tempDir,
  useRunnerScenarios,
} from '../support/runner-scenario.js';
import { copying, story, writeFixtures } from '../support/suite-fixtures.js';

let artefacts: S3ArtefactStore;

useRunnerScenarios((stores) => ({ artefacts } = stores));

/** Writes the feature the suite below checks for. */
const AGENT = 'echo "$RALPH_STORY_ID" > feature.txt';

describe('Function: runIteration (evaluation suite)', () => {
  /** A suite that writes two stories, takes a moment, and leaves a marker outside the repo. */
  async function suiteConfig(marker: string): Promise<RunConfigInput['evaluation']> {
    const from = await writeFixtures(await tempDir('fixtures'), {
      'first.json': story('S-1'),
      'second.json': story('S-2'),
      'broken.json': '{',
    });
    return {
      enabled: true,
      suite: {
        command: `touch "${marker}"; ${copying(from)} && test -f feature.txt && sleep 0.3 && echo "suite ran"`,
      },
    };
  }

  it('uploads the documents of a passed iteration and lists their ids in result.json', async () => {
    // Prepare
    const marker = join(await tempDir('marker'), 'ran');
    const { runId, repo, deps } = await scenario({
      agent: AGENT,
      evaluation: await suiteConfig(marker),
    });

    // Act
    const result = await runIteration(deps, { runId, iteration: 1 });

    // Assess
    expect(result.outcome).toBe('passed');
    expect(result.documents).toEqual(['S-1', 'S-2']);
    const stored = IterationResultSchema.parse(
      JSON.parse(await artefacts.getText(artefactKeys.iteration(runId, 1, 'result.json'))),
    );
    expect(stored.documents).toEqual(['S-1', 'S-2']);
    for (const id of ['S-1', 'S-2']) {
      const key = artefactKeys.evaluationArtefact(runId, 1, id);
      expect(key).toBe(`runs/${runId}/iterations/1/artefacts/${id}.json`);
      const document = DocumentArtefactSchema.parse(JSON.parse(await artefacts.getText(key)));
      expect(document).toMatchObject({
        kind: 'document',
        id,
        documentType: 'user_story',
        content: { id, title: `Story ${id}` },
      });
    }
    const suiteKey = artefactKeys.iteration(runId, 1, 'suite.json');
    expect(result.artefacts.suite).toBe(suiteKey);
    expect(JSON.parse(await artefacts.getText(suiteKey))).toMatchObject({
      status: 'ok',
      exitCode: 0,
      documents: ['S-1', 'S-2'],
      problems: [expect.stringMatching(/^broken\.json: \(root\): not valid JSON/)],
      outputTail: 'suite ran',
    });
    // The suite ran after the commit (feature.txt was committed), which it is not part of.
    expect(await exists(marker)).toBe(true);
    expect(await git(repo, 'rev-parse', 'HEAD')).toBe(result.commit);
    expect(await git(repo, 'show', '--name-only', '--format=', 'HEAD')).not.toContain(
      '.ralph-eval',
    );
    expect(await git(repo, 'status', '--porcelain', '--untracked-files=all')).toBe('');
    // Counted with the gates (there are none here), not as runner overhead.
    expect(result.durations.gatesMs).toBeGreaterThanOrEqual(300);
  });

  it('leaves out a document whose upload failed, and says why in suite.json', async () => {
    // Prepare
    const marker = join(await tempDir('marker'), 'ran');
    const { runId, deps } = await scenario({ agent: AGENT, evaluation: await suiteConfig(marker) });
    const refused = artefactKeys.evaluationArtefact(runId, 1, 'S-2');
    const events: string[] = [];
    const failing: RunnerDeps = {
      ...deps,
      artefacts: failingPuts((key) => key === refused),
      log: (event) => {
        if (event.event === 'artefact-write-failed') events.push(String(event.artefact));
      },
    };

    // Act
    const result = await runIteration(failing, { runId, iteration: 1 });

    // Assess
    expect(result.outcome).toBe('passed');
    expect(result.documents).toEqual(['S-1']);
    expect(events).toEqual([refused]);
    const report = JSON.parse(
      await artefacts.getText(artefactKeys.iteration(runId, 1, 'suite.json')),
    ) as { documents: string[]; problems: string[] };
    expect(report.documents).toEqual(['S-1']);
    expect(report.problems).toContain(`S-2: upload failed: S3 refused ${refused}`);
  });

  it('runs the suite on the restored code when the iteration fails', async () => {
    // Prepare: the suite checks for the agent's feature.txt, which the reset removes.
    const marker = join(await tempDir('marker'), 'ran');
    const failed = await scenario({
      agent: AGENT,
      gates: [{ name: 'test', command: 'exit 1' }],
      evaluation: await suiteConfig(marker),
    });

    // Act
    const result = await runIteration(failed.deps, { runId: failed.runId, iteration: 1 });

    // Assess: scored on the same documents; the suite saw the code without the change.
    expect(result.outcome).toBe('gates_failed');
    expect(await exists(marker)).toBe(true);
    expect(result.documents).toEqual(['S-1', 'S-2']);
    const report = JSON.parse(
      await artefacts.getText(artefactKeys.iteration(failed.runId, 1, 'suite.json')),
    ) as { status: string; exitCode: number | null };
    expect(report.status).toBe('failed');
    expect(report.exitCode).not.toBe(0);
    expect(await git(failed.repo, 'status', '--porcelain')).toBe('');
  });

  it('does not run the suite when evaluation is off', async () => {
    // Prepare
    const marker = join(await tempDir('marker'), 'ran');
    const off = await scenario({
      agent: AGENT,
      evaluation: { ...(await suiteConfig(marker)), enabled: false },
    });

    // Act
    const result = await runIteration(off.deps, { runId: off.runId, iteration: 1 });

    // Assess
    expect(result.outcome).toBe('passed');
    expect(result.documents).toEqual([]);
    expect(result.artefacts.suite).toBeUndefined();
    expect(await exists(marker)).toBe(false);
  });
});

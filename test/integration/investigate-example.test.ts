/**
 * The investigate example (examples/investigate/): its scripted agent finds and fixes the
 * example app's bug through the real runner, and the fix keeps the app's test passing.
 */
import { describe, expect, it } from 'vitest';
import { runIteration } from '../../agent/runner.js';
import { git } from '../support/git-repo.js';
import { exampleTemplateFiles, SCRIPTED_INVESTIGATOR } from '../support/investigate-example.js';
import { investigateScenario, makeErrorGroup } from '../support/investigate-scenario.js';
import { artefact, useRunnerScenarios, type RunnerStores } from '../support/runner-scenario.js';

let stores: RunnerStores;
useRunnerScenarios((ready) => (stores = ready));

describe('The investigate example', () => {
  it("has a scripted agent that fixes the app's bug, verified by the app's test", async () => {
    // Prepare
    const { runId, repo, deps } = await investigateScenario(stores, {
      script: {},
      files: await exampleTemplateFiles(),
      agent: `node ${SCRIPTED_INVESTIGATOR}`,
      gates: [{ name: 'test', command: 'node --test', blocking: true, timeoutSeconds: 60 }],
      groups: [
        makeErrorGroup(
          'issue:4711',
          "TypeError: Cannot read properties of undefined (reading 'percent')",
          'src/cart.mjs',
          4,
        ),
      ],
    });

    // Act
    const result = await runIteration(deps, { runId, iteration: 1 });

    // Assess
    const investigation = result.investigation;
    expect(investigation?.verdict).toBe('fix-verified');
    expect(investigation?.passes[0]?.analysis?.confidence).toBe('high');
    expect(investigation?.passes[0]?.analysis?.filesExamined).toEqual(['src/cart.mjs']);
    const fixed = await git(repo, 'show', `${investigation?.fix?.commit ?? ''}:src/cart.mjs`);
    expect(fixed).toContain('return sum - (sum * (discount?.percent ?? 0)) / 100;');
    expect(await artefact(runId, 'transcript.jsonl')).toContain(
      'a deterministic stand-in, not a model',
    );
  });
});

/**
 * The local stack's learning store: on the same table and bucket as the loop's own stores,
 * so the CLI reads and writes what the handlers do.
 */
import { describe, expect, it } from 'vitest';
import { useLocalStack } from '../support/e2e-stack.js';
import { makeHint, makeRegistryPattern } from '../support/learning-stores.js';
import { makeRun } from '../support/records.js';

const stack = useLocalStack();

describe('Function: openLocalStack', () => {
  it('exposes a learning store on the run table and the artefact bucket', async () => {
    // Prepare
    const { learning, deps } = stack();
    const runId = 'run-learning-1';
    await deps.runs.createRun(makeRun({ runId }), []);
    // Over 400 KB: only a pattern whose body went to the bucket can be saved at all.
    const code = 'export const retry = () => undefined;\n'.repeat(12_000);

    // Act
    await learning.putHint(makeHint({ runId }));
    const pattern = await learning.savePattern(
      makeRegistryPattern({ type: 'template', template: { language: 'typescript', code } }),
      undefined,
    );
    const hintsBefore = await learning.listHints(runId);
    await deps.runs.deleteRun(runId);

    // Assess
    expect(hintsBefore).toHaveLength(1);
    expect(await learning.listHints(runId)).toEqual([]);
    expect(await learning.getPattern('org', pattern.patternId)).toEqual(pattern);
  });
});

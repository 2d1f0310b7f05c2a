import { describe, expect, it } from 'vitest';
import { CountingStarter } from '../../bench/api/counting-starter.js';

describe('bench/api: CountingStarter', () => {
  it('records every start in order and answers with an execution id that says none ran', async () => {
    // Prepare
    const starter = new CountingStarter();

    // Act
    const first = await starter.startSegment({ runId: 'r1', segment: 1 });
    await starter.startSegment({ runId: 'r2', segment: 2 });

    // Assess
    expect(starter.started).toEqual([
      { runId: 'r1', segment: 1 },
      { runId: 'r2', segment: 2 },
    ]);
    expect(first.executionId).toBe('bench-not-started:r1-s1');
  });
});

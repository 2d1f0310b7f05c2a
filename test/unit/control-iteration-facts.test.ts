import { describe, expect, it } from 'vitest';
import { iterationFacts } from '../../lambdas/core/control/facts/iteration-facts.js';
import { IterationResultSchema } from '../../lambdas/core/schemas/iteration-result.js';

const result = (overrides: Record<string, unknown>) =>
  IterationResultSchema.parse({
    runId: 'run-1',
    iteration: 3,
    taskId: 'US-001',
    outcome: 'gates_failed',
    durations: { agentMs: 1, gatesMs: 1, runnerMs: 1 },
    startedAt: '2025-01-15T10:00:00.000Z',
    endedAt: '2025-01-15T10:05:00.000Z',
    ...overrides,
  });
const signals = { meaningfulChange: false, gateCounts: {} };
const endedAt = '2025-01-15T10:05:00.000Z';

describe('Function: iterationFacts', () => {
  it("signs the error itself, not the runner's gate header above it", () => {
    // Prepare
    const failed = result({
      failureDetail: "gate test failed (exit 1):\nsrc/a.ts(3,1): error TS2322: Type 'x'.",
      filesChanged: ['src/a.ts'],
    });

    // Act
    const facts = iterationFacts({ result: failed, mode: 'debugger', signals, endedAt });

    // Assess
    expect(facts).toEqual({
      iteration: 3,
      taskId: 'US-001',
      mode: 'debugger',
      outcome: 'gates_failed',
      committed: false,
      meaningfulChange: false,
      errorSignature: "src/a.ts:<line>: error TS2322: Type 'x'.",
      filesTouchedUncommitted: ['src/a.ts'],
      endedAt,
    });
  });

  it('sums the tests and warnings the gates reported, leaving out what none did', () => {
    // Prepare
    const gateCounts = {
      unit: { tests: { passed: 4, failed: 1, total: 5, frameworks: ['vitest' as const] } },
      e2e: { tests: { failed: 2, frameworks: ['go' as const] } },
    };

    // Act
    const facts = iterationFacts({
      result: result({ outcome: 'passed', commit: 'abc1234', filesChanged: ['src/a.ts'] }),
      mode: 'implementer',
      signals: { meaningfulChange: true, gateCounts },
      endedAt,
    });

    // Assess
    expect(facts).toMatchObject({ committed: true, testsPassed: 4, testsFailed: 3 });
    expect(facts).not.toHaveProperty('testsTotal');
    expect(facts).not.toHaveProperty('warnings');
    expect(facts.filesTouchedUncommitted).toEqual([]);
  });
});

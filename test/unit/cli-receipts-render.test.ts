import { describe, expect, it } from 'vitest';
import { iterationReceipt, runReceipts } from '../../bin/cli/receipts-render.js';
import { makeIteration, makeRun } from '../support/records.js';

const receipt = (iteration: number, lines: number, reason?: string) => ({
  iteration,
  taskId: 'US-001',
  lines: Array.from({ length: lines }, () => ({
    role: 'judge' as const,
    model: 'claude-sonnet-4-6\u001b]0;x\u0007',
    inputTokens: 12_000,
    outputTokens: 800,
    cacheReadTokens: 0,
    cacheWriteTokens: 0,
    calls: 3,
    costUsd: 0.048,
    source: 'priced' as const,
  })),
  totalUsd: 0.048 * lines,
  gates: [],
  ...(reason ? { reason } : {}),
  pricesAsOf: '2026-12-01',
});

describe('Function: runReceipts', () => {
  it('prints nothing before any receipt, and says so when no iteration reported usage', () => {
    // Prepare
    const run = makeRun();

    // Act / Assess
    expect(runReceipts(run, [makeIteration()])).toBeUndefined();
    expect(
      runReceipts(run, [
        makeIteration({ receipt: receipt(1, 0) }),
        makeIteration({ iteration: 2, receipt: receipt(2, 0) }),
      ]),
    ).toBe(
      'cost receipts  no usage reported in 2 iterations (the agent printed no stream-json result, and nothing was judged)',
    );
  });

  it('prints the lines with their calls, the reasons, the price date and the budget', () => {
    // Prepare
    const run = makeRun({ costUsd: 0.048, config: { limits: { maxCostUsd: 2 } } });
    const iterations = [
      makeIteration({
        iteration: 2,
        attempt: 2,
        receipt: receipt(2, 1, 'retry after iteration 1'),
      }),
    ];

    // Act
    const text = runReceipts(run, iterations) ?? '';

    // Assess
    expect(text).toContain('cost receipts (prices as of 2026-12-01)');
    expect(text).toMatch(
      /│ 2 +│ US-001 +│ claude-sonnet-4-6\\x1b]0;x\\x07 +│ judge ×3 +│ 12,000 +│ 800 +│ \$0\.0480 +│ priced +│/,
    );
    expect(text).not.toContain('\u0007');
    expect(text).toContain('#2 ran again: retry after iteration 1');
    expect(text).toContain('run cost  $0.0480 over 1 receipt (limits.maxCostUsd $2.0000)');
    expect(iterationReceipt(iterations[0]!)).toContain('iteration cost  $0.0480');
  });
});

import { describe, expect, it } from 'vitest';
import { agentSessionUsage, passesUsage } from '../../lambdas/core/costs/agent-session-usage.js';
import { agentCostLines, pricedLine } from '../../lambdas/core/costs/cost-lines.js';
import { recordedReceipt, receiptWith, rerunReason } from '../../lambdas/core/costs/receipt.js';
import { DEFAULT_PRICING, pricingFor } from '../../lambdas/core/judge/pricing.js';
import { recordResult } from '../../lambdas/core/loop/record-result.js';
import { IterationResultSchema } from '../../lambdas/core/schemas/iteration-result.js';
import { makeGate, makeIteration, makeRun, makeTask } from '../support/records.js';

/** A Claude Code `--output-format stream-json --verbose` session, as its last lines print it. */
const SESSION = [
  '{"type":"system","subtype":"init","cwd":"/work","session_id":"s-1","model":"claude-sonnet-4-6","tools":["Bash"]}',
  '{"type":"assistant","message":{"model":"claude-sonnet-4-6","content":[{"type":"text","text":"done"}]}}',
  JSON.stringify({
    type: 'result',
    subtype: 'success',
    is_error: false,
    duration_ms: 4000,
    num_turns: 3,
    result: 'done',
    session_id: 's-1',
    total_cost_usd: 0.0521,
    usage: {
      input_tokens: 1200,
      cache_creation_input_tokens: 3000,
      cache_read_input_tokens: 9000,
      output_tokens: 640,
    },
    modelUsage: {
      'claude-sonnet-4-6': {
        inputTokens: 1000,
        outputTokens: 600,
        cacheReadInputTokens: 9000,
        cacheCreationInputTokens: 3000,
        webSearchRequests: 0,
        costUSD: 0.05,
        contextWindow: 200000,
      },
      'claude-haiku-4-5-20251001': {
        inputTokens: 200,
        outputTokens: 40,
        cacheReadInputTokens: 0,
        cacheCreationInputTokens: 0,
        webSearchRequests: 0,
        costUSD: 0.0021,
        contextWindow: 200000,
      },
    },
  }),
].join('\n');

describe('Function: agentSessionUsage', () => {
  it("reads Claude Code's modelUsage per model, with its figures", () => {
    // Act
    const usage = agentSessionUsage(SESSION);

    // Assess
    expect(usage).toEqual({
      models: [
        {
          model: 'claude-sonnet-4-6',
          inputTokens: 1000,
          outputTokens: 600,
          cacheReadTokens: 9000,
          cacheWriteTokens: 3000,
          costUsd: 0.05,
        },
        {
          model: 'claude-haiku-4-5-20251001',
          inputTokens: 200,
          outputTokens: 40,
          cacheReadTokens: 0,
          cacheWriteTokens: 0,
          costUsd: 0.0021,
        },
      ],
      totalCostUsd: 0.0521,
    });
  });

  it("falls back to usage and the session's model when modelUsage is absent", () => {
    // Prepare
    const stdout = [
      '{"type":"system","subtype":"init","model":"claude-opus-4-8"}',
      '{"type":"result","total_cost_usd":0.3,"usage":{"input_tokens":100,"cache_read_input_tokens":50,"output_tokens":20}}',
    ].join('\n');

    // Act
    const usage = agentSessionUsage(stdout);

    // Assess
    expect(usage?.models).toEqual([
      {
        model: 'claude-opus-4-8',
        inputTokens: 100,
        outputTokens: 20,
        cacheReadTokens: 50,
        cacheWriteTokens: 0,
        costUsd: 0.3,
      },
    ]);
  });

  it('reports nothing for an agent that prints no result event', () => {
    expect(agentSessionUsage('wrote the code\n<promise>COMPLETE</promise>\n')).toBeUndefined();
  });
});

describe('Function: passesUsage', () => {
  it("sums an investigation's passes, as reported only when every pass gave a cost", () => {
    // Prepare
    const reported = [
      { tokens: { input: 900, output: 80 }, costUsd: 0.12 },
      { tokens: { input: 100, output: 20 }, costUsd: 0.03 },
    ];

    // Act / Assess
    expect(passesUsage(reported)).toEqual({
      models: [
        {
          model: 'unknown',
          inputTokens: 1000,
          outputTokens: 100,
          cacheReadTokens: 0,
          cacheWriteTokens: 0,
          costUsd: 0.15,
        },
      ],
      totalCostUsd: 0.15,
    });
    expect(passesUsage([reported[0]!, { tokens: { input: 5, output: 5 } }])?.totalCostUsd).toBe(
      undefined,
    );
    expect(passesUsage([{}, {}])).toBeUndefined();
  });
});

describe('Function: agentCostLines', () => {
  it("takes each model's own figure as reported", () => {
    // Act
    const lines = agentCostLines(agentSessionUsage(SESSION)!, DEFAULT_PRICING);

    // Assess
    expect(lines.map((line) => [line.model, line.costUsd, line.source])).toEqual([
      ['claude-sonnet-4-6', 0.05, 'reported'],
      ['claude-haiku-4-5-20251001', 0.0021, 'reported'],
    ]);
  });

  it('prices a model without a figure from the table, cache tokens as input', () => {
    // Prepare: 1M input tokens in all, at an overridden $2/M; 0 output.
    const table = pricingFor({
      asOf: '2026-12-01',
      models: { 'claude-sonnet-4-6': { inputPerMTok: 2, outputPerMTok: 10 } },
    });
    const usage = {
      models: [
        {
          model: 'claude-sonnet-4-6',
          inputTokens: 400_000,
          outputTokens: 0,
          cacheReadTokens: 500_000,
          cacheWriteTokens: 100_000,
        },
      ],
    };

    // Act
    const [line] = agentCostLines(usage, table);

    // Assess
    expect(line).toMatchObject({ role: 'agent', costUsd: 2, source: 'priced' });
  });
});

describe('Function: receiptWith', () => {
  it("keeps the other roles' lines and sums them all", () => {
    // Prepare
    const record = makeIteration({ iteration: 2 });
    const agent = agentCostLines(agentSessionUsage(SESSION)!, DEFAULT_PRICING);
    const judge = pricedLine(
      'judge',
      { model: 'claude-sonnet-4-6', inputTokens: 2000, outputTokens: 400, calls: 2 },
      DEFAULT_PRICING,
    );

    // Act: the evaluation's lines first, then the agent's.
    const evaluated = receiptWith(record, ['judge', 'proposer'], judge, DEFAULT_PRICING);
    const receipt = receiptWith(
      { ...record, receipt: evaluated },
      ['agent'],
      agent,
      DEFAULT_PRICING,
    );

    // Assess
    expect(receipt.lines.map((line) => line.role)).toEqual(['agent', 'agent', 'judge']);
    expect(receipt.totalUsd).toBe(0.0641);
    expect(receipt.pricesAsOf).toBe(DEFAULT_PRICING.asOf);
  });
});

describe('Function: rerunReason', () => {
  it("names the task's last failure on a retry, and nothing on a first attempt", () => {
    // Prepare
    const run = makeRun({
      lastRecordedIteration: 1,
      lastFailure: {
        iteration: 1,
        taskId: 'US-001',
        outcome: 'gates_failed',
        summary: 'typecheck failed',
      },
    });

    // Act / Assess
    expect(rerunReason(run, { iteration: 2, attempt: 2, taskId: 'US-001' })).toBe(
      'retry after iteration 1 (gates_failed): typecheck failed',
    );
    expect(rerunReason(run, { iteration: 2, attempt: 1, taskId: 'US-002' })).toBeUndefined();
  });
});

describe('Function: recordResult (receipts)', () => {
  it("puts the receipt on the iteration and adds its total to the run's cost", () => {
    // Prepare
    const run = makeRun({ costUsd: 0.5, iterationsStarted: 1 });
    const record = makeIteration({ status: 'running' });
    const result = IterationResultSchema.parse({
      runId: 'run-1',
      iteration: 1,
      taskId: 'US-001',
      outcome: 'passed',
      durations: { agentMs: 1, gatesMs: 1, runnerMs: 1 },
      startedAt: '2026-11-27T10:00:00.000Z',
      endedAt: '2026-11-27T10:01:00.000Z',
      gates: [makeGate({ name: 'test', passed: true })],
      agentUsage: agentSessionUsage(SESSION),
    });

    // Act
    const recorded = recordResult({
      run,
      tasks: [makeTask()],
      record,
      result,
      now: '2026-11-27T10:01:00.000Z',
    });

    // Assess
    expect(recorded.iteration.receipt).toMatchObject({
      iteration: 1,
      taskId: 'US-001',
      totalUsd: 0.0521,
      gates: [{ name: 'test', passed: true }],
    });
    expect(recorded.changed.run?.costUsd).toBe(0.5521);
    // Unchanged by a price override: every agent line is the agent's own figure.
    expect(recordedReceipt(run, record, result, pricingFor(undefined)).totalUsd).toBe(0.0521);
  });
});

/**
 * The Run API returns what runs cost: each iteration's receipt in the iteration views, and
 * the run's sum in the run view. The agent is the Claude-Code-like stand-in, which reports
 * made-up usage for made-up models in Claude Code's stream-json `result`.
 */
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { runEnded, useApiServer } from '../support/api-server.js';
import { useReposWithPrd } from '../support/repos-with-prd.js';

const AGENT = `node ${join(import.meta.dirname, '..', 'fixtures', 'agents', 'claude-like-agent.mjs')}`;

describe('Run API: cost receipts', () => {
  const api = useApiServer();
  const repoWithPrd = useReposWithPrd();

  it("returns each iteration's receipt and the run's cost", async () => {
    // Prepare
    const { repo, prd } = await repoWithPrd(1);
    const started = await api().call('POST', '/runs', {
      body: {
        repo,
        prd,
        config: {
          agent: { command: AGENT, env: { STAND_IN_COST_USD: '0.02' } },
          control: { quality: { maxReviewIterations: 0 } },
        },
      },
    });

    // Act
    const view = await runEnded(api(), started.json.runId);
    const list = await api().call('GET', `/runs/${started.json.runId}/iterations`);
    const first = await api().call('GET', `/runs/${started.json.runId}/iterations/1`);

    // Assess
    expect(view.run).toMatchObject({ status: 'completed', costUsd: 0.02 });
    expect(list.json.iterations[0].receipt).toMatchObject({ iteration: 1, totalUsd: 0.02 });
    expect(first.json.iteration.receipt.lines).toEqual([
      expect.objectContaining({ role: 'agent', model: 'stand-in-large', costUsd: 0.016 }),
      expect.objectContaining({ role: 'agent', model: 'stand-in-small', costUsd: 0.004 }),
    ]);
  });
});

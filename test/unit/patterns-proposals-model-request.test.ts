import { describe, expect, it } from 'vitest';
import { resolveEvaluationConfig } from '../../lambdas/core/schemas/evaluation-config.js';
import {
  proposalOutcome,
  proposalRequest,
  selectForProposal,
} from '../../lambdas/core/patterns/proposals/model-request.js';
import { proposalFixture } from '../support/proposal-stories.js';

describe('Function: selectForProposal', () => {
  it('picks |gap| above the artefact threshold, largest first, ties by id, capped', () => {
    // Prepare: gaps 4.5 − cheap: high_0 0.5 (at), high_1 0.500001, high_2 1.5; low gaps −1.5
    const { pairs } = proposalFixture({ high_0: 4, high_1: 3.999999, high_2: 3, high_3: 4.5 });
    const only = (ids: string[]) => pairs.filter((pair) => ids.includes(pair.artefactId));

    // Act
    const chosen = selectForProposal(
      only(['high_0', 'high_1', 'high_2', 'low_1', 'low_0']),
      resolveEvaluationConfig({ proposals: { maxPerIteration: 10 } }),
    );
    const capped = selectForProposal(
      pairs,
      resolveEvaluationConfig({ proposals: { maxPerIteration: 2 } }),
    );

    // Assess
    expect(chosen.map((pair) => pair.artefactId)).toEqual(['high_2', 'low_0', 'low_1', 'high_1']);
    expect(capped).toHaveLength(2);
  });
});

describe('Function: proposalRequest', () => {
  it("asks with the document's prompt and the proposals' tries, tokens and timeout", () => {
    // Prepare
    const prompt = { system: 'sys', user: 'usr', direction: 'good' as const, target: 'change' };
    const config = resolveEvaluationConfig({ proposals: { maxTries: 3, timeoutSeconds: 10 } });

    // Act
    const request = proposalRequest(prompt, config, { modelId: 'claude-sonnet-4-6' });

    // Assess
    expect(request).toMatchObject({
      modelId: 'claude-sonnet-4-6',
      system: 'sys',
      user: 'usr',
      maxTokens: 1024,
      timeoutMs: 10_000,
      maxTries: 3,
    });
    expect(request).not.toHaveProperty('signal');
    expect(request.correction('bad')).toContain('good_change_indicators');
  });
});

describe('Function: proposalOutcome', () => {
  const usage = { inputTokens: 1, outputTokens: 1, costUsd: 0 };
  const context = {
    direction: 'good' as const,
    target: 'document:user_story',
    iteration: 4,
    now: new Date('2026-01-16T14:30:00Z'),
    existing: [],
    artefactId: 'story_1',
  };
  const config = resolveEvaluationConfig();
  const answer = { category: 'value_phrases', pattern: 'frustrated when', rationale: 'pain' };

  it('makes a usable answer a provisional pattern', () => {
    const outcome = proposalOutcome(
      { ok: true, answer, text: '{}', attempts: 2, usage },
      context,
      config,
    );
    expect(outcome).toMatchObject({ ok: true, calls: 2, pattern: { status: 'provisional' } });
  });

  it('keeps the reason and the raw answer of a failure', () => {
    expect(
      proposalOutcome(
        { ok: false, error: 'model unavailable', attempts: 1, usage },
        context,
        config,
      ),
    ).toEqual({ ok: false, reason: 'model unavailable', usage, calls: 1 });
    const refused = proposalOutcome(
      { ok: true, answer: { ...answer, category: 'bad_signals' }, text: 'raw', attempts: 1, usage },
      context,
      config,
    );
    expect(refused).toMatchObject({ ok: false, raw: 'raw', calls: 1 });
  });
});

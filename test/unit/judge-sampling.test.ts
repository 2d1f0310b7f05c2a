import { describe, expect, it } from 'vitest';
import { resolveEvaluationConfig } from '../../lambdas/core/schemas/evaluation-config.js';
import {
  DEFAULT_JUDGE_MAX_TOKENS,
  judgeRequest,
  planSamples,
  sampleOf,
} from '../../lambdas/core/judge/sampling.js';
import { buildJudgePrompt } from '../../lambdas/core/judge/prompt.js';
import { combineSamples, type JudgeSample } from '../../lambdas/core/judge/verdict.js';
import { GOOD_STORY, makeStory, qusVerdicts, storyArtefact } from '../support/evaluation.js';

const usage = { inputTokens: 1, outputTokens: 1, costUsd: 0 };
const answer = { gestalt: 4, reasoning: 'fine', strengths: [], weaknesses: [] };
const ok: JudgeSample = { status: 'ok', answer, attempts: 1, usage };
const failed: JudgeSample = { status: 'failed', error: 'bad', attempts: 2, usage };

describe('Function: planSamples', () => {
  it("reuses an earlier pass's good samples and asks only for the rest", () => {
    // Prepare
    const a = storyArtefact(GOOD_STORY);
    const b = storyArtefact(makeStory({ id: 'story_b' }));
    const previous = {
      results: [combineSamples(a.id, [ok], 1, 0.5), combineSamples(b.id, [failed], 1, 0.5)],
    };

    // Act
    const plans = planSamples([a, b], 3, previous);

    // Assess
    expect(plans.map((plan) => [plan.artefact.id, plan.reused.length, plan.missing])).toEqual([
      [a.id, 1, 2],
      [b.id, 0, 3],
    ]);
    expect(plans[0]?.prompt).toEqual(buildJudgePrompt(a));
  });

  it('refuses a number of runs that is not a positive integer', () => {
    expect(() => planSamples([], 0)).toThrow(RangeError);
    expect(() => planSamples([], 1.5)).toThrow(RangeError);
  });
});

describe('Function: judgeRequest', () => {
  it("asks with the judge's tries and timeout, and sends only the options given", () => {
    // Prepare
    const prompt = buildJudgePrompt(storyArtefact(GOOD_STORY));
    const config = resolveEvaluationConfig({ judge: { maxTries: 2, timeoutSeconds: 30 } });

    // Act
    const plain = judgeRequest(prompt, config, 'claude-sonnet-4-6');
    const tuned = judgeRequest(prompt, config, 'claude-sonnet-4-6', {
      temperature: 0,
      maxTokens: 10,
    });

    // Assess
    expect(plain).toMatchObject({
      modelId: 'claude-sonnet-4-6',
      system: prompt.system,
      user: prompt.user,
      maxTokens: DEFAULT_JUDGE_MAX_TOKENS,
      timeoutMs: 30_000,
      maxTries: 2,
    });
    expect(plain).not.toHaveProperty('temperature');
    expect(tuned).toMatchObject({ temperature: 0, maxTokens: 10 });
    expect(plain.parse('{"gestalt": 9}').ok).toBe(false);
    // The prompt is a user story's: its answer must carry the QUS verdicts.
    expect(plain.parse(JSON.stringify(answer))).toMatchObject({
      ok: false,
      problem: expect.stringMatching(/^criteria: /),
    });
    expect(plain.parse(JSON.stringify({ ...answer, criteria: qusVerdicts() })).ok).toBe(true);
    expect(plain.correction('criteria: no verdict on atomic')).toContain('"criteria": [');
  });
});

describe('Function: sampleOf', () => {
  it('makes an answer a sample, and a failure one with its last raw answer', () => {
    expect(sampleOf({ ok: true, answer, text: '{}', attempts: 1, usage })).toEqual(ok);
    expect(sampleOf({ ok: false, error: 'bad', raw: 'nope', attempts: 2, usage })).toEqual({
      ...failed,
      rawAnswer: 'nope',
    });
    expect(sampleOf({ ok: false, error: 'bad', attempts: 2, usage })).toEqual(failed);
  });
});

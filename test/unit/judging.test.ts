import { describe, expect, it } from 'vitest';
import { RalphError, TransientError } from '../../lambdas/core/errors.js';
import { judgeArtefacts, runExpensiveMode } from '../../lambdas/core/steps/judging.js';
import { type Artefact } from '../../lambdas/core/schemas/evaluation.js';
import {
  resolveEvaluationConfig,
  type EvaluationConfig,
} from '../../lambdas/core/schemas/evaluation-config.js';
import type { Clock, ModelClient, ModelRequest, ModelResponse } from '../../lambdas/ports.js';
import { qusVerdicts } from '../support/evaluation.js';

const MODELS = { judge: 'claude-sonnet-4-6' };

/** The evaluation config with the given judge settings over the defaults. */
function config(overrides: Partial<EvaluationConfig['judge']> = {}): EvaluationConfig {
  return resolveEvaluationConfig({ judge: overrides });
}

function storyArtefact(id: string): Artefact {
  return {
    kind: 'document',
    id,
    documentType: 'user_story',
    content: {
      id,
      title: `Story ${id}`,
      description: 'As a user I want to export invoices so that I can file taxes.',
      acceptance_criteria: ['Export returns a CSV'],
      services: [],
      source_conversations: [],
    },
  };
}

function answer(gestalt: number, reasoning = `scored ${gestalt}`): string {
  return JSON.stringify({
    gestalt,
    reasoning,
    strengths: ['s'],
    weaknesses: ['w'],
    criteria: qusVerdicts(),
  });
}

/** The artefact id a request is about (from the prompt's artefact line). */
function artefactOf(request: ModelRequest): string {
  return /^Artefact: .* id=(\S+)$/m.exec(request.messages[0]?.content ?? '')?.[1] ?? '?';
}

type Reply = string | Error | Partial<ModelResponse>;

/**
 * An in-memory ModelClient: `reply` decides each call's answer from the request and how
 * many calls this artefact has had; every request is recorded.
 */
function fakeModel(reply: (request: ModelRequest, call: number) => Reply) {
  const requests: ModelRequest[] = [];
  const callsPerArtefact = new Map<string, number>();
  let inFlight = 0;
  let maxInFlight = 0;
  const model: ModelClient = {
    async complete(request) {
      requests.push(request);
      const id = artefactOf(request);
      const call = (callsPerArtefact.get(id) ?? 0) + 1;
      callsPerArtefact.set(id, call);
      inFlight += 1;
      maxInFlight = Math.max(maxInFlight, inFlight);
      await new Promise((resolve) => setTimeout(resolve, 1));
      inFlight -= 1;
      const result = reply(request, call);
      if (result instanceof Error) throw result;
      const base: ModelResponse = {
        text: '',
        model: request.model,
        stopReason: 'end_turn',
        usage: { inputTokens: 1_000, outputTokens: 200 },
        attempts: 1,
      };
      return typeof result === 'string' ? { ...base, text: result } : { ...base, ...result };
    },
  };
  return { model, requests, maxInFlight: () => maxInFlight };
}

describe('Function: judgeArtefacts', () => {
  it('scores every artefact and totals tokens and cost', async () => {
    // Prepare
    const { model } = fakeModel((request) => answer(artefactOf(request) === 'a' ? 4 : 3));
    const artefacts = ['a', 'b', 'c'].map(storyArtefact);

    // Act
    const run = await judgeArtefacts({ model }, artefacts, config(), MODELS);

    // Assess
    expect(run.results.map((judged) => judged.result)).toEqual([
      expect.objectContaining({ status: 'ok', artefactId: 'a', gestalt: 4, attempts: 1 }),
      expect.objectContaining({ status: 'ok', artefactId: 'b', gestalt: 3 }),
      expect.objectContaining({ status: 'ok', artefactId: 'c', gestalt: 3 }),
    ]);
    // 1,000 in × $3/M + 200 out × $15/M = $0.006 a call.
    expect(run.results[0]?.result.usage).toEqual({
      inputTokens: 1_000,
      outputTokens: 200,
      costUsd: 0.006,
    });
    expect(run.usage).toEqual({ inputTokens: 3_000, outputTokens: 600, costUsd: 0.018 });
    expect(run).toMatchObject({
      calls: 3,
      judged: 3,
      failed: 0,
      failureRate: 0,
      unreliable: false,
    });
    expect(run.averageGestalt).toBe(3.333);
    expect(run.results[0]?.result).not.toHaveProperty('samples');
  });

  it('asks the judge model with the configured timeout, without a temperature by default', async () => {
    // Prepare
    const { model, requests } = fakeModel(() => answer(4));

    // Act
    await judgeArtefacts({ model }, [storyArtefact('a')], config({ timeoutSeconds: 30 }), MODELS);
    await judgeArtefacts({ model }, [storyArtefact('b')], config(), MODELS, { temperature: 0 });

    // Assess
    expect(requests[0]).toMatchObject({
      model: 'claude-sonnet-4-6',
      timeoutMs: 30_000,
      maxTokens: 1024,
    });
    expect(requests[0]?.system).toContain('one JSON object');
    expect(requests[0]).not.toHaveProperty('temperature');
    expect(requests[1]).toMatchObject({ temperature: 0 });
  });

  it('retries an unusable answer, showing the model what was wrong', async () => {
    // Prepare
    const { model, requests } = fakeModel((_, call) =>
      call === 1 ? 'Sure! {"gestalt": 4' : answer(4),
    );

    // Act
    const run = await judgeArtefacts({ model }, [storyArtefact('a')], config(), MODELS);

    // Assess
    expect(run.results[0]?.result).toMatchObject({ status: 'ok', gestalt: 4, attempts: 2 });
    expect(run.results[0]?.result.usage.inputTokens).toBe(2_000);
    expect(requests[1]?.messages.map((message) => message.role)).toEqual([
      'user',
      'assistant',
      'user',
    ]);
    expect(requests[1]?.messages[1]?.content).toBe('Sure! {"gestalt": 4');
    expect(requests[1]?.messages[2]?.content).toContain('could not be used: not valid JSON');
  });

  it('records a failure, not a score, after judgeMaxTries unusable answers, and hands back the raw answer', async () => {
    // Prepare
    const { model, requests } = fakeModel((_, call) => answer(6 + call));

    // Act
    const run = await judgeArtefacts(
      { model },
      [storyArtefact('a')],
      config({ maxTries: 3 }),
      MODELS,
    );

    // Assess
    const [judged] = run.results;
    expect(requests).toHaveLength(3);
    expect(judged?.result).toEqual({
      status: 'failed',
      artefactId: 'a',
      error: expect.stringMatching(/^invalid answer after 3 tries: gestalt: /),
      attempts: 3,
      usage: { inputTokens: 3_000, outputTokens: 600, costUsd: 0.018 },
    });
    expect(judged?.result).not.toHaveProperty('gestalt');
    expect(judged?.rawAnswer).toBe(answer(9));
    expect(run.averageGestalt).toBeUndefined();
  });

  it('says when an unusable answer was cut off at max_tokens', async () => {
    const { model } = fakeModel(() => ({ text: '{"gestalt": 4, "reas', stopReason: 'max_tokens' }));
    const run = await judgeArtefacts(
      { model },
      [storyArtefact('a')],
      config({ maxTries: 1 }),
      MODELS,
      {
        maxTokens: 50,
      },
    );
    expect(run.results[0]?.result).toMatchObject({
      status: 'failed',
      error: expect.stringContaining('(the answer was cut off at 50 tokens)'),
    });
  });

  it('does not retry an unavailable model: the adapter already did', async () => {
    // Prepare
    const { model, requests } = fakeModel(() => new TransientError('429 after 3 tries'));

    // Act
    const run = await judgeArtefacts({ model }, [storyArtefact('a')], config(), MODELS);

    // Assess
    expect(requests).toHaveLength(1);
    expect(run.results[0]?.result).toMatchObject({
      status: 'failed',
      error: 'model unavailable: 429 after 3 tries',
      attempts: 1,
      usage: { inputTokens: 0, outputTokens: 0, costUsd: 0 },
    });
    expect(run.results[0]).not.toHaveProperty('rawAnswer');
  });

  it('keeps the raw answer of an earlier try when a later try finds the model unavailable', async () => {
    const { model } = fakeModel((_, call) =>
      call === 1 ? 'nonsense' : new TransientError('down'),
    );
    const run = await judgeArtefacts({ model }, [storyArtefact('a')], config(), MODELS);
    expect(run.results[0]?.result).toMatchObject({ status: 'failed', attempts: 2 });
    expect(run.results[0]?.rawAnswer).toBe('nonsense');
  });

  it('fails the artefact on a refused request', async () => {
    const { model, requests } = fakeModel(
      () => new RalphError('400 prompt is too long', { code: 'MODEL_REQUEST_REJECTED' }),
    );
    const run = await judgeArtefacts({ model }, [storyArtefact('a')], config(), MODELS);
    expect(requests).toHaveLength(1);
    expect(run.results[0]?.result).toMatchObject({
      status: 'failed',
      error: 'model refused the request (MODEL_REQUEST_REJECTED): 400 prompt is too long',
    });
  });

  it('lets a programming error through', async () => {
    const { model } = fakeModel(() => new TypeError('boom'));
    await expect(judgeArtefacts({ model }, [storyArtefact('a')], config(), MODELS)).rejects.toThrow(
      TypeError,
    );
  });

  it('keeps at most judgeConcurrency calls in flight', async () => {
    // Prepare
    const fake = fakeModel(() => answer(4));
    const artefacts = ['a', 'b', 'c', 'd', 'e', 'f', 'g'].map(storyArtefact);

    // Act
    const run = await judgeArtefacts(
      { model: fake.model },
      artefacts,
      config({ concurrency: 3 }),
      MODELS,
    );

    // Assess
    expect(run.judged).toBe(7);
    expect(fake.maxInFlight()).toBe(3);
    expect(run.results.map((judged) => judged.result.artefactId)).toEqual([
      'a',
      'b',
      'c',
      'd',
      'e',
      'f',
      'g',
    ]);
  });

  it('measures the pass when given a clock', async () => {
    let now = 0;
    const clock: Clock = { now: () => new Date((now += 250)) };
    const { model } = fakeModel(() => answer(4));
    const run = await judgeArtefacts({ model, clock }, [storyArtefact('a')], config(), MODELS);
    expect(run.durationMs).toBe(250);
  });

  describe('failure rate', () => {
    /** `failing` of `total` artefacts fail. */
    async function passWith(
      failing: number,
      total: number,
      overrides: Partial<EvaluationConfig['judge']> = {},
    ) {
      const ids = Array.from({ length: total }, (_, index) => `s${index}`);
      const failingIds = new Set(ids.slice(0, failing));
      const { model } = fakeModel((request) =>
        failingIds.has(artefactOf(request)) ? new TransientError('overloaded') : answer(4),
      );
      return judgeArtefacts({ model }, ids.map(storyArtefact), config(overrides), MODELS);
    }

    it('is reliable at exactly 20% failures (1 of 5)', async () => {
      const run = await passWith(1, 5);
      expect(run).toMatchObject({ failed: 1, judged: 4, failureRate: 0.2, unreliable: false });
      expect(run.averageGestalt).toBe(4);
    });

    it('is unreliable just above 20% (2 of 9)', async () => {
      const run = await passWith(2, 9);
      expect(run.failureRate).toBeCloseTo(0.222, 3);
      expect(run.unreliable).toBe(true);
    });

    it('is reliable just below 20% (1 of 6), and follows unreliableFailureRate', async () => {
      expect((await passWith(1, 6)).unreliable).toBe(false);
      expect((await passWith(1, 6, { unreliableFailureRate: 0.1 })).unreliable).toBe(true);
    });

    it('is 0 for no artefacts', async () => {
      const run = await passWith(0, 0);
      expect(run).toMatchObject({ failureRate: 0, unreliable: false, calls: 0 });
      expect(run.averageGestalt).toBeUndefined();
    });
  });

  describe('re-runs', () => {
    it('takes the median of the samples, with the median sample’s reasoning', async () => {
      // Prepare
      const scores = [2, 5, 4];
      const { model } = fakeModel((_, call) => answer(scores[call - 1] as number));

      // Act
      const run = await judgeArtefacts({ model }, [storyArtefact('a')], config(), MODELS, {
        runs: 3,
      });

      // Assess
      const [judged] = run.results;
      expect(judged?.result).toMatchObject({
        status: 'ok',
        gestalt: 4,
        samples: [2, 5, 4],
        reasoning: 'scored 4',
        attempts: 3,
      });
      expect(judged?.spread).toBe(3);
      expect(judged?.highVariance).toBe(true);
      expect(run.highVariance).toBe(true);
      expect(run.calls).toBe(3);
    });

    it('flags high variance only above highVarianceThreshold', async () => {
      const scores = [4, 4.5, 4];
      const { model } = fakeModel((_, call) => answer(scores[call - 1] as number));
      const run = await judgeArtefacts(
        { model },
        [storyArtefact('a')],
        config({ highVarianceThreshold: 0.5 }),
        MODELS,
        {
          runs: 3,
        },
      );
      expect(run.results[0]).toMatchObject({ spread: 0.5, highVariance: false });
    });

    it('takes the median of the good samples when some fail, and fails only when all do', async () => {
      // Prepare
      const { model } = fakeModel((request, call) => {
        if (artefactOf(request) === 'b') return new TransientError('down');
        return call === 2 ? new TransientError('down') : answer(call === 1 ? 3 : 4);
      });

      // Act
      const run = await judgeArtefacts({ model }, ['a', 'b'].map(storyArtefact), config(), MODELS, {
        runs: 3,
      });

      // Assess
      expect(run.results[0]?.result).toMatchObject({
        status: 'ok',
        gestalt: 3.5,
        samples: [3, 4],
        attempts: 3,
      });
      expect(run.results[1]?.result).toMatchObject({
        status: 'failed',
        error: 'all 3 samples failed; last: model unavailable: down',
        attempts: 3,
      });
      expect(run.failureRate).toBe(0.5);
    });

    it("reuses an earlier pass's good samples and pays only for the missing ones", async () => {
      // Prepare
      const first = fakeModel((request) => (artefactOf(request) === 'b' ? 'garbage' : answer(3)));
      const artefacts = ['a', 'b'].map(storyArtefact);
      const previous = await judgeArtefacts(
        { model: first.model },
        artefacts,
        config({ maxTries: 1 }),
        MODELS,
      );
      const second = fakeModel(() => answer(4));

      // Act
      const run = await judgeArtefacts({ model: second.model }, artefacts, config(), MODELS, {
        runs: 3,
        previous,
      });

      // Assess
      expect(second.requests.filter((request) => artefactOf(request) === 'a')).toHaveLength(2);
      expect(second.requests.filter((request) => artefactOf(request) === 'b')).toHaveLength(3);
      expect(run.results[0]?.result).toMatchObject({ gestalt: 4, samples: [3, 4, 4] });
      expect(run.results[0]?.result.usage.inputTokens).toBe(3_000);
      expect(run.results[1]?.result).toMatchObject({ gestalt: 4, samples: [4, 4, 4] });
      expect(run.usage.inputTokens).toBe(5_000);
    });

    it('refuses a runs count that is not a positive integer', async () => {
      const { model } = fakeModel(() => answer(4));
      await expect(
        judgeArtefacts({ model }, [storyArtefact('a')], config(), MODELS, { runs: 0 }),
      ).rejects.toThrow(RangeError);
    });
  });
});

describe('Function: runExpensiveMode', () => {
  it('keeps a reliable pass as it is', async () => {
    const { model, requests } = fakeModel(() => answer(4));
    const result = await runExpensiveMode(
      { model },
      ['a', 'b'].map(storyArtefact),
      config(),
      MODELS,
    );
    expect(result.rerun).toBe(false);
    expect(result.firstPass).toBeUndefined();
    expect(requests).toHaveLength(2);
    expect(result.usage).toEqual(result.final.usage);
  });

  it('re-runs an unreliable pass judgeReruns times and takes the median', async () => {
    // Prepare: 'a' fails on its first call only (1 of 2 artefacts = 50% > 20%).
    const { model } = fakeModel((request, call) =>
      artefactOf(request) === 'a' && call === 1
        ? new TransientError('overloaded')
        : answer(artefactOf(request) === 'a' ? 3 + call * 0.5 : 4),
    );

    // Act
    const result = await runExpensiveMode(
      { model },
      ['a', 'b'].map(storyArtefact),
      config(),
      MODELS,
    );

    // Assess
    expect(result).toMatchObject({ rerun: true, rerunReason: 'unreliable' });
    expect(result.firstPass).toMatchObject({ failed: 1, unreliable: true });
    expect(result.final).toMatchObject({ runs: 3, failed: 0, unreliable: false });
    expect(result.final.results[0]?.result).toMatchObject({
      status: 'ok',
      gestalt: 4.5,
      samples: [4, 4.5, 5],
    });
    expect(result.final.results[1]?.result).toMatchObject({ gestalt: 4, samples: [4, 4, 4] });
    expect(result.usage.inputTokens).toBe(
      result.firstPass!.usage.inputTokens + result.final.usage.inputTokens,
    );
  });

  it('re-runs when the caller asks, e.g. after the judge moved on unchanged artefacts', async () => {
    const { model, requests } = fakeModel(() => answer(4));
    const result = await runExpensiveMode(
      { model },
      [storyArtefact('a')],
      config({ reruns: 5 }),
      MODELS,
      {
        forceRerun: true,
      },
    );
    expect(result).toMatchObject({ rerun: true, rerunReason: 'requested' });
    expect(result.final.results[0]?.result).toMatchObject({ samples: [4, 4, 4, 4, 4] });
    expect(requests).toHaveLength(5);
  });
});

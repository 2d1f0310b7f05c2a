/**
 * The expensive mode end to end below the handler: judgeArtefacts / runExpensiveMode →
 * AnthropicModelClient → the real SDK → the model double answering as the offline judge,
 * with scripted faults.
 */
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { AnthropicModelClient } from '../../lambdas/adapters/anthropic.js';
import { judgeArtefacts, runExpensiveMode } from '../../lambdas/core/steps/judging.js';
import { type Artefact, type StoryDocument } from '../../lambdas/core/schemas/evaluation.js';
import {
  resolveEvaluationConfig,
  type EvaluationConfig,
} from '../../lambdas/core/schemas/evaluation-config.js';
import { fault, when } from '../../local/model-server/faults.js';
import type { ModelServerRequest } from '../../local/model-server/request.js';
import { startModelServer, type ModelServer } from '../../local/model-server/server.js';
import { offlineResponder } from '../../local/offline-judge/responder.js';
import { judgeStoryOffline } from '../../local/offline-judge/story-rubric.js';
import { GOOD_STORY, makeStory, qusVerdicts, storyArtefact } from '../support/evaluation.js';
import { changeOf } from '../support/offline-judge.js';

const MODELS = { judge: 'claude-sonnet-4-6' };
let server: ModelServer;
let model: AnthropicModelClient;

beforeAll(async () => {
  server = await startModelServer();
  model = new AnthropicModelClient({
    apiKey: 'offline',
    baseURL: server.url,
    backoff: { initialDelayMs: 2, maxDelayMs: 10 },
  });
});

afterAll(async () => {
  await server?.stop();
});

beforeEach(() => {
  server.reset();
  server.respondWith(offlineResponder);
});

/** The evaluation config with the given judge settings over the defaults. */
function config(overrides: Partial<EvaluationConfig['judge']> = {}): EvaluationConfig {
  return resolveEvaluationConfig({ enabled: true, judge: overrides });
}

function story(id: string, overrides: Partial<StoryDocument> = {}): Artefact {
  return storyArtefact(makeStory({ id, ...overrides }));
}

const poor = story('story_poor', {
  title: 'Improve dashboard and fix login',
  description: 'Make things better and also fix login somehow, etc.',
  acceptance_criteria: ['Works properly'],
  technical_area: null,
  services: [],
});

/** A change whose blocking test gate failed. */
const change = changeOf({ gatesPass: false });

/** Requests about one artefact (its id on the prompt's artefact line). */
const about =
  (id: string) =>
  (request: ModelServerRequest): boolean =>
    request.firstUserText.includes(` id=${id}\n`);

describe('Function: judgeArtefacts (through the SDK and the model double)', () => {
  it('scores stories and a change with the offline judge, with tokens and cost', async () => {
    // Act
    const run = await judgeArtefacts(
      { model },
      [story('story_good'), poor, change],
      config(),
      MODELS,
    );

    // Assess
    const [good, bad, changed] = run.results.map((judged) => judged.result);
    expect(good).toMatchObject({
      status: 'ok',
      gestalt: judgeStoryOffline({ ...GOOD_STORY, id: 'story_good' }).gestalt,
      attempts: 1,
    });
    expect(bad).toMatchObject({ status: 'ok', attempts: 1 });
    expect(changed).toMatchObject({ status: 'ok', attempts: 1 });
    if (good?.status !== 'ok' || bad?.status !== 'ok' || changed?.status !== 'ok')
      throw new Error('unreachable');
    expect(good.gestalt).toBeGreaterThan(bad.gestalt + 2);
    expect(changed.reasoning).toContain('blocking gate failed: "test"');
    expect(good.reasoning).toContain('not a model');
    expect(run.usage.inputTokens).toBeGreaterThan(0);
    expect(run.usage.costUsd).toBeGreaterThan(0);
    expect(run).toMatchObject({ judged: 3, failed: 0, unreliable: false, calls: 3 });
  });

  it('rides out a 429 in the adapter: one judge attempt', async () => {
    server.script(fault.rateLimited(0));
    const run = await judgeArtefacts({ model }, [story('s1')], config(), MODELS);
    expect(run.results[0]?.result).toMatchObject({ status: 'ok', attempts: 1 });
    expect(server.requests.map((received) => received.status)).toEqual([429, 200]);
  });

  it('retries a malformed answer and succeeds, correcting the model', async () => {
    // Prepare
    server.script(fault.malformed());

    // Act
    const run = await judgeArtefacts({ model }, [story('s1')], config(), MODELS);

    // Assess
    expect(run.results[0]?.result).toMatchObject({ status: 'ok', attempts: 2 });
    const retry = server.requests[1]?.body as { messages: { role: string; content: string }[] };
    expect(retry.messages.map((message) => message.role)).toEqual(['user', 'assistant', 'user']);
    expect(retry.messages[2]?.content).toContain('not valid JSON');
  });

  it('retries an out-of-range score and succeeds', async () => {
    server.script(fault.outOfRange(0));
    const run = await judgeArtefacts({ model }, [story('s1')], config(), MODELS);
    expect(run.results[0]?.result).toMatchObject({ status: 'ok', attempts: 2 });
  });

  it('records a failure, keeping the raw answer, after three malformed answers', async () => {
    // Prepare
    server.script(fault.malformed(), fault.malformed(), fault.text('still {not json'));

    // Act
    const run = await judgeArtefacts({ model }, [story('s1')], config(), MODELS);

    // Assess
    const [judged] = run.results;
    expect(judged?.result).toMatchObject({
      status: 'failed',
      attempts: 3,
      error: expect.stringContaining('invalid answer after 3 tries: not valid JSON'),
    });
    expect(judged?.result).not.toHaveProperty('gestalt');
    expect(judged?.rawAnswer).toBe('still {not json');
    expect(judged?.result.usage.outputTokens).toBeGreaterThan(0);
    expect(run.unreliable).toBe(true);
  });

  it('fails an artefact whose model stayed unavailable, without judge retries on top', async () => {
    // Prepare: the adapter's three tries all get 500.
    server.script(
      when(about('s2'), fault.serverError()),
      when(about('s2'), fault.serverError()),
      when(about('s2'), fault.serverError()),
    );

    // Act
    const run = await judgeArtefacts(
      { model },
      ['s1', 's2', 's3'].map((id) => story(id)),
      config(),
      MODELS,
    );

    // Assess
    expect(run.results[1]?.result).toMatchObject({
      status: 'failed',
      attempts: 1,
      error: expect.stringContaining(
        'model unavailable: model claude-sonnet-4-6 unavailable after 3 tries: 500',
      ),
    });
    expect(run.results[1]).not.toHaveProperty('rawAnswer');
    expect(server.requests.filter((received) => received.status === 500)).toHaveLength(3);
    expect(server.requests).toHaveLength(5);
    expect(run.failureRate).toBeCloseTo(1 / 3);
  });
});

describe('Function: runExpensiveMode (through the SDK and the model double)', () => {
  it('re-runs an unreliable pass (> 20% failed) and takes the median per artefact', async () => {
    // Prepare: 2 of 5 artefacts get three malformed answers on the first pass (40% failed).
    const ids = ['s1', 's2', 's3', 's4', 's5'];
    for (const id of ['s2', 's4'])
      server.script(...Array.from({ length: 3 }, () => when(about(id), fault.malformed())));

    // Act
    const result = await runExpensiveMode(
      { model },
      ids.map((id) => story(id)),
      config(),
      MODELS,
    );

    // Assess
    expect(result.firstPass).toMatchObject({ failed: 2, failureRate: 0.4, unreliable: true });
    expect(result.firstPass?.results[1]?.rawAnswer).toContain('"gestalt": 4');
    expect(result).toMatchObject({ rerun: true, rerunReason: 'unreliable' });
    expect(result.final).toMatchObject({
      runs: 3,
      failed: 0,
      unreliable: false,
      highVariance: false,
    });
    const expected = judgeStoryOffline({ ...GOOD_STORY, id: 's1' }).gestalt;
    for (const judged of result.final.results)
      expect(judged.result).toMatchObject({
        status: 'ok',
        gestalt: expected,
        samples: [expected, expected, expected],
      });
    // First pass: 3 ok calls + 2 × 3 malformed; re-run: 3 × 2 missing + 2 × 3.
    expect(server.requests).toHaveLength(9 + 12);
    expect(result.usage.costUsd).toBeCloseTo(
      result.firstPass!.usage.costUsd + result.final.usage.costUsd,
      6,
    );
  });

  it('flags an artefact whose samples disagree', async () => {
    // Prepare: the judge wavers on s2 (2, then 4, then 5).
    const wavering = [2, 4, 5];
    server.respondWith((request) => {
      if (!about('s2')(request)) return offlineResponder(request);
      const gestalt = wavering.shift() ?? 3;
      return JSON.stringify({
        gestalt,
        reasoning: `wavering ${gestalt}`,
        strengths: [],
        weaknesses: [],
        criteria: qusVerdicts(),
      });
    });

    // Act
    const result = await runExpensiveMode(
      { model },
      [story('s1'), story('s2')],
      config({ concurrency: 1 }),
      MODELS,
      {
        forceRerun: true,
      },
    );

    // Assess
    const judged = result.final.results[1];
    expect(judged?.result).toMatchObject({
      status: 'ok',
      gestalt: 4,
      samples: [2, 4, 5],
      reasoning: 'wavering 4',
    });
    expect(judged).toMatchObject({ spread: 3, highVariance: true });
    expect(result.final.highVariance).toBe(true);
  });
});

describe('Pattern proposal through the model double', () => {
  it('answers the design document’s proposal prompt from the judge reasoning', async () => {
    // Prepare
    const reasoning = judgeStoryOffline(GOOD_STORY).reasoning;
    const prompt = [
      'The expensive LLM judge gave this story a score of 5.',
      'The cheap pattern-based evaluator gave it 3.2.',
      'Gap: 1.8',
      '',
      'Expensive mode reasoning:',
      reasoning,
      '',
      'Cheap mode detected these signals:',
      'good_ac, good_tech',
      '',
      'Current cheap mode patterns:',
      'user can, allows, enables',
      '',
      'What pattern is the cheap mode MISSING that would catch what the expensive mode saw?',
    ].join('\n');

    // Act
    const response = await model.complete({
      model: MODELS.judge,
      system: 'You propose patterns.',
      messages: [{ role: 'user', content: prompt }],
      maxTokens: 512,
      timeoutMs: 2_000,
    });

    // Assess
    const proposal = JSON.parse(response.text) as {
      category: string;
      pattern: string;
      rationale: string;
    };
    expect(proposal).toEqual({
      category: expect.any(String),
      pattern: expect.any(String),
      rationale: expect.stringContaining('not a model'),
    });
    expect(reasoning.toLowerCase()).toContain(proposal.pattern);
  });
});

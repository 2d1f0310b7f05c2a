import { describe, expect, it } from 'vitest';
import { TransientError } from '../../lambdas/core/errors.js';
import {
  DEFAULT_EVALUATION_CONFIG,
  resolveEvaluationConfig,
} from '../../lambdas/core/schemas/evaluation-config.js';
import { compilePatternSet } from '../../lambdas/core/cheap/compile.js';
import { patternText } from '../../lambdas/core/patterns/artefact-text.js';
import { mineDiscriminativePhrases } from '../../lambdas/core/patterns/miner/log-odds.js';
import { proposePatterns, type ProposeInput } from '../../lambdas/core/steps/proposing.js';
import {
  PatternSchema,
  PatternSetSchema,
  type Pattern,
} from '../../lambdas/core/schemas/evaluation.js';
import type { ModelClient, ModelRequest } from '../../lambdas/ports.js';
import { proposePatternOffline } from '../../local/offline-judge/propose.js';
import { proposalFixture } from '../support/proposal-stories.js';
import { makePattern } from '../support/evaluation.js';

const NOW = new Date('2026-01-16T14:30:00Z');
const config = DEFAULT_EVALUATION_CONFIG;
const EXISTING: Pattern[] = [makePattern({ id: 'p_001', phrases: ['user can'] })];

function input(overrides: Partial<ProposeInput> = {}): ProposeInput {
  return {
    iteration: 6,
    now: NOW,
    gap: 1.1,
    ...proposalFixture(),
    patterns: EXISTING,
    modelId: 'claude-sonnet-4-6',
    ...overrides,
  };
}

type Answer = string | Error;

/** A ModelClient double: `answer` decides each call's text from the request and call number. */
function modelDouble(answer: (request: ModelRequest, call: number) => Answer) {
  const requests: ModelRequest[] = [];
  const model: ModelClient = {
    async complete(request) {
      requests.push(request);
      const text = answer(request, requests.length);
      if (text instanceof Error) throw text;
      return {
        text,
        model: request.model,
        stopReason: 'end_turn',
        usage: { inputTokens: 1_000, outputTokens: 100 },
        attempts: 1,
      };
    },
  };
  return { model, requests };
}

/** What the local model server answers: the offline proposer, reading the last user turn. */
const offline = (request: ModelRequest): string =>
  JSON.stringify(proposePatternOffline(request.messages.at(-1)?.content ?? '') ?? null);

/** The artefact a proposal request is about. */
const artefactOf = (request: ModelRequest): string =>
  /^The \w+ \((\S+), /m.exec(request.messages[0]?.content ?? '')?.[1] ?? '?';

describe('Function: proposePatterns', () => {
  it('does nothing while the gap is at or below the threshold', async () => {
    // Prepare
    const { model, requests } = modelDouble(offline);

    // Act
    const atThreshold = await proposePatterns({ model }, input({ gap: 0.5 }), config);
    const below = await proposePatterns({ model }, input({ gap: -0.5 + 1e-6 }), config);
    const none = await proposePatterns({ model }, input({ gap: null }), config);

    // Assess
    for (const result of [atThreshold, below, none]) {
      expect(result.patterns).toEqual([]);
      expect(result.report.learned).toBe(false);
    }
    expect(atThreshold.report.reason).toBe('|gap| 0.5 does not exceed 0.5');
    expect(none.report.reason).toContain('no gap');
    expect(requests).toHaveLength(0);
  });

  it('proposes provisional patterns from the model and the miner above the threshold', async () => {
    // Prepare
    const { model, requests } = modelDouble(offline);

    // Act
    const { patterns, report } = await proposePatterns({ model }, input(), config);

    // Assess
    expect(report.learned).toBe(true);
    expect(report.reason).toBe('|gap| 1.1 exceeds 0.5');
    const sources = new Set(patterns.map((pattern) => pattern.source));
    expect(sources).toEqual(new Set(['llm_proposal', 'log_odds_miner']));
    for (const pattern of patterns) {
      expect(PatternSchema.parse(pattern)).toEqual(pattern);
      expect(pattern).toMatchObject({ status: 'provisional', learnedIteration: 6, weight: 1 });
    }
    expect(new Set(patterns.map((pattern) => pattern.id)).size).toBe(patterns.length);
    expect(patterns.length).toBeLessThanOrEqual(config.proposals.maxNewPatterns);
    expect(report.proposed.map((entry) => entry.patternId)).toEqual(patterns.map((p) => p.id));
    // Three artefacts asked (the default), one call each, with the configured timeout.
    expect(report.askedArtefacts).toHaveLength(3);
    expect(requests).toHaveLength(3);
    expect(report.modelCalls).toBe(3);
    expect(report.usage.inputTokens).toBe(3_000);
    for (const request of requests) {
      expect(request.timeoutMs).toBe(120_000);
      expect(request.model).toBe('claude-sonnet-4-6');
    }
    // The grown set still compiles (unique ids, valid targets and regexes).
    expect(() =>
      compilePatternSet(
        PatternSetSchema.parse({
          schemaVersion: '2.0',
          version: 2,
          createdAt: NOW.toISOString(),
          patterns: [...EXISTING, ...patterns],
        }),
      ),
    ).not.toThrow();
  });

  it('retries an unusable answer once, showing the model what was wrong', async () => {
    // Prepare
    const { model, requests } = modelDouble((request, call) =>
      call === 1 ? 'Sure! Here is a pattern: so that' : offline(request),
    );

    // Act
    const { patterns, report } = await proposePatterns(
      { model },
      input(),
      resolveEvaluationConfig({ proposals: { maxPerIteration: 1 } }),
    );

    // Assess
    expect(requests).toHaveLength(2);
    expect(requests[1]?.messages).toHaveLength(3);
    expect(requests[1]?.messages[1]).toEqual({
      role: 'assistant',
      content: 'Sure! Here is a pattern: so that',
    });
    expect(requests[1]?.messages[2]?.content).toContain(
      'Your answer could not be used: not valid JSON',
    );
    expect(patterns.filter((pattern) => pattern.source === 'llm_proposal')).toHaveLength(1);
    expect(report.modelCalls).toBe(2);
    expect(report.dropped.filter((entry) => entry.source === 'llm_proposal')).toEqual([]);
  });

  it('records an artefact whose answers stay unusable and goes on', async () => {
    // Prepare
    const { model, requests } = modelDouble(() => '{"category": "value_phrases"}');

    // Act
    const { patterns, report } = await proposePatterns({ model }, input(), config);

    // Assess
    expect(requests).toHaveLength(6);
    const rejected = report.dropped.filter((entry) => entry.source === 'llm_proposal');
    expect(rejected).toHaveLength(3);
    expect(rejected[0]).toMatchObject({
      artefactId: report.askedArtefacts[0],
      reason: expect.stringMatching(/^invalid answer after 2 tries: pattern: /),
      raw: '{"category": "value_phrases"}',
    });
    expect(patterns.every((pattern) => pattern.source === 'log_odds_miner')).toBe(true);
    expect(patterns.length).toBeGreaterThan(0);
  });

  it('records an unavailable model without throwing, and asks the next artefact', async () => {
    // Prepare
    const { model, requests } = modelDouble((request, call) =>
      call === 1 ? new TransientError('529 overloaded') : offline(request),
    );

    // Act
    const { patterns, report } = await proposePatterns({ model }, input(), config);

    // Assess
    expect(requests).toHaveLength(3);
    expect(report.dropped).toContainEqual({
      source: 'llm_proposal',
      artefactId: artefactOf(requests[0]!),
      reason: 'model unavailable: 529 overloaded',
    });
    expect(patterns.filter((pattern) => pattern.source === 'llm_proposal')).toHaveLength(2);
  });

  it('lets a defect (an error that is not a RalphError) through', async () => {
    const { model } = modelDouble(() => new TypeError('bug'));
    await expect(proposePatterns({ model }, input(), config)).rejects.toThrow('bug');
  });

  it('asks about the largest gaps only, up to maxProposalsPerIteration', async () => {
    // Prepare: low_5's gap is the largest (1.5 − 4.5 = −3)
    const { model, requests } = modelDouble(offline);

    // Act
    await proposePatterns(
      { model },
      input(proposalFixture({ low_5: 4.5 })),
      resolveEvaluationConfig({ proposals: { maxPerIteration: 1 } }),
    );

    // Assess
    expect(requests.map(artefactOf)).toEqual(['low_5']);
  });

  it('caps the patterns added per iteration and reports the rest', async () => {
    // Prepare
    const { model } = modelDouble(offline);

    // Act
    const uncapped = await proposePatterns(
      { model },
      input(),
      resolveEvaluationConfig({ proposals: { maxNewPatterns: 100 } }),
    );
    const capped = await proposePatterns(
      { model },
      input(),
      resolveEvaluationConfig({ proposals: { maxNewPatterns: 1 } }),
    );

    // Assess
    expect(uncapped.patterns.length).toBeGreaterThan(1);
    expect(capped.patterns).toEqual(uncapped.patterns.slice(0, 1));
    const overCap = capped.report.dropped.filter((entry) => entry.reason.includes('over the cap'));
    expect(overCap.map((entry) => entry.patternId)).toEqual(
      uncapped.patterns.slice(1).map((pattern) => pattern.id),
    );
  });

  it('runs the miner alone without a model', async () => {
    // Act
    const { patterns, report } = await proposePatterns({}, input(), config);

    // Assess
    expect(report.modelSkipped).toBe('no model is available');
    expect(report.modelCalls).toBe(0);
    expect(patterns.length).toBeGreaterThan(0);
    expect(patterns.every((pattern) => pattern.source === 'log_odds_miner')).toBe(true);
    expect(new Set(patterns.map((pattern) => pattern.type))).toEqual(new Set(['good', 'bad']));
  });

  it('keeps one pattern when the model and the miner propose the same phrase', async () => {
    // Prepare: what the miner finds, proposed by the model too
    const { artefacts, pairs } = proposalFixture();
    const byId = new Map(artefacts.map((artefact) => [artefact.id, artefact]));
    const mined = mineDiscriminativePhrases(
      pairs.map((pair) => ({
        artefactId: pair.artefactId,
        text: patternText(byId.get(pair.artefactId)!),
        judgeScore: pair.expensive,
      })),
      config,
      { existing: EXISTING, iteration: 6, now: NOW },
    );
    const good = mined.phrases.find((phrase) => phrase.type === 'good')!;
    const { model } = modelDouble(() =>
      JSON.stringify({ category: 'good_story_indicators', pattern: good.phrase, rationale: 'r' }),
    );

    // Act
    const { patterns, report } = await proposePatterns(
      { model },
      input(),
      resolveEvaluationConfig({ proposals: { maxPerIteration: 1 } }),
    );

    // Assess
    const holding = patterns.filter((pattern) =>
      [...pattern.keywords, ...pattern.phrases].includes(good.phrase),
    );
    expect(holding.map((pattern) => pattern.source)).toEqual(['llm_proposal']);
    expect(report.dropped).toContainEqual(
      expect.objectContaining({
        source: 'log_odds_miner',
        patternId: holding[0]!.id,
        reason: `duplicates ${holding[0]!.id} (provisional)`,
      }),
    );
  });

  it('drops a near-duplicate of an existing pattern by the analysis’s Jaccard rule', async () => {
    // Prepare: {audit trail} against {audit trail, audit log}: Jaccard 0.5
    const existing = [
      ...EXISTING,
      makePattern({ id: 'p_audit', phrases: ['audit trail', 'audit log'] }),
    ];
    const { model } = modelDouble(() =>
      JSON.stringify({ category: 'value_phrases', pattern: 'audit trail', rationale: 'r' }),
    );
    const run = (threshold: number) =>
      proposePatterns(
        { model },
        input({ patterns: existing }),
        resolveEvaluationConfig({
          proposals: { maxPerIteration: 1 },
          patterns: { dedupeJaccardThreshold: threshold },
        }),
      );

    // Act
    const at = await run(0.5);
    const above = await run(0.5 + 1e-6);

    // Assess
    expect(at.patterns.some((pattern) => pattern.source === 'llm_proposal')).toBe(false);
    expect(at.report.dropped).toContainEqual(
      expect.objectContaining({ source: 'llm_proposal', reason: 'near-duplicate of p_audit' }),
    );
    expect(above.patterns.some((pattern) => pattern.source === 'llm_proposal')).toBe(true);
  });
});

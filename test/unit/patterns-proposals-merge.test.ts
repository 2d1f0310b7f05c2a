import { describe, expect, it } from 'vitest';
import {
  DEFAULT_EVALUATION_CONFIG,
  resolveEvaluationConfig,
} from '../../lambdas/core/schemas/evaluation-config.js';
import {
  learningReason,
  mergeProposals,
  noLearning,
  shouldLearn,
} from '../../lambdas/core/patterns/proposals/merge.js';
import { anchoredForm } from '../../lambdas/core/patterns/miner/anchored.js';
import { makePattern, makeStory } from '../support/evaluation.js';
import { pairedFixture, proposalFixture } from '../support/proposal-stories.js';
import {
  ATOMIC_STORIES_WITHOUT_AND,
  ATOMIC_STORIES_WITH_AND,
  CONJUNCTION_STORIES,
} from '../support/ustai-samples.js';

const config = DEFAULT_EVALUATION_CONFIG;

describe('Function: shouldLearn', () => {
  it('learns only when |gap| exceeds the threshold', () => {
    expect(shouldLearn(0.5 - 1e-6, config)).toBe(false);
    expect(shouldLearn(0.5, config)).toBe(false);
    expect(shouldLearn(1.1 - 0.6, config)).toBe(false); // 0.5000000000000001
    expect(shouldLearn(0.5 + 1e-6, config)).toBe(true);
    expect(shouldLearn(-0.6, config)).toBe(true);
    expect(shouldLearn(null, config)).toBe(false);
    expect(shouldLearn(0.6, resolveEvaluationConfig({ proposals: { gapThreshold: 0.7 } }))).toBe(
      false,
    );
  });
});

describe('Function: learningReason', () => {
  it('says why learning runs or not, in one line', () => {
    expect(learningReason(1.1, config)).toBe('|gap| 1.1 exceeds 0.5');
    expect(learningReason(-0.2, config)).toBe('|gap| 0.2 does not exceed 0.5');
    expect(learningReason(null, config)).toBe('no gap: no artefact was scored by both modes');
  });
});

describe('Function: noLearning', () => {
  it('reports an iteration that does not learn, with nothing asked or proposed', () => {
    expect(noLearning('why')).toEqual({
      learned: false,
      reason: 'why',
      askedArtefacts: [],
      proposed: [],
      dropped: [],
      usage: { inputTokens: 0, outputTokens: 0, costUsd: 0 },
      modelCalls: 0,
    });
  });
});

describe('Function: mergeProposals', () => {
  const NOW = new Date('2026-01-16T14:30:00Z');
  const sources = { iteration: 6, now: NOW, ...proposalFixture(), patterns: [] };
  const usage = { inputTokens: 10, outputTokens: 1, costUsd: 0.01 };
  const proposed = (id: string, phrase: string) =>
    makePattern({ id, phrases: [phrase], status: 'provisional', source: 'llm_proposal' });

  it("puts the model's proposals first, then the miner's, and reports both", () => {
    // Act
    const { patterns, report } = mergeProposals(
      sources,
      {
        asked: ['high_0'],
        usage,
        calls: 2,
        proposals: [{ artefactId: 'high_0', pattern: proposed('p_month_close', 'month close') }],
        rejected: [{ artefactId: 'low_0', reason: 'invalid answer', raw: 'no' }],
      },
      '|gap| 1.1 exceeds 0.5',
      config,
    );

    // Assess
    expect(patterns[0]?.id).toBe('p_month_close');
    expect(patterns.slice(1).every((pattern) => pattern.source === 'log_odds_miner')).toBe(true);
    expect(report).toMatchObject({
      learned: true,
      reason: '|gap| 1.1 exceeds 0.5',
      askedArtefacts: ['high_0'],
      usage,
      modelCalls: 2,
    });
    expect(report.dropped[0]).toEqual({
      source: 'llm_proposal',
      artefactId: 'low_0',
      reason: 'invalid answer',
      raw: 'no',
    });
    expect(report.proposed.map((entry) => entry.patternId)).toEqual(
      patterns.map((pattern) => pattern.id),
    );
  });

  it('says why the model did not run, and caps what the miner adds', () => {
    // Act
    const { patterns, report } = mergeProposals(
      sources,
      { skipped: 'no model is available' },
      'r',
      resolveEvaluationConfig({ proposals: { maxNewPatterns: 1 } }),
    );

    // Assess
    expect(report.modelSkipped).toBe('no model is available');
    expect(patterns).toHaveLength(1);
    expect(report.dropped.some((entry) => entry.reason.includes('over the cap of 1'))).toBe(true);
  });

  it('proposes a conjunction anchored to the "I want" part as a regex pattern', () => {
    // Prepare: the judge scored the UStAI conjunction stories low, the atomic ones high
    const story = (id: string, description: string) =>
      makeStory({ id, title: '', description, acceptance_criteria: [], technical_area: null });
    const stories = [
      ...CONJUNCTION_STORIES.map((text, i) => story(`low_${i}`, text)),
      ...[...ATOMIC_STORIES_WITH_AND, ...ATOMIC_STORIES_WITHOUT_AND.slice(0, 3)].map((text, i) =>
        story(`high_${i}`, text),
      ),
    ];
    const fixture = pairedFixture(stories, (id) => (id.startsWith('low') ? 1.5 : 4.5));
    const { source } = anchoredForm('and')!;

    // Act
    const { patterns, report } = mergeProposals(
      { iteration: 6, now: NOW, ...fixture, patterns: [] },
      { skipped: 'no model' },
      '|gap| 1.1 exceeds 0.5',
      config,
    );

    // Assess
    expect(patterns).toContainEqual(
      expect.objectContaining({ type: 'bad', regexes: [source], status: 'provisional' }),
    );
    expect(report.proposed).toContainEqual(
      expect.objectContaining({ source: 'log_odds_miner', type: 'bad', matches: [`/${source}/`] }),
    );
  });
});

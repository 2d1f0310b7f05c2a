import { describe, expect, it } from 'vitest';
import {
  DEFAULT_EVALUATION_CONFIG,
  resolveEvaluationConfig,
} from '../../lambdas/core/schemas/evaluation-config.js';
import {
  cheapSignals,
  DEFAULT_HEURISTIC_SIGNALS,
  matchWeaknesses,
  measureCoverage,
  patternTokens,
} from '../../lambdas/core/gap/coverage.js';
import { pairResults } from '../../lambdas/core/gap/pairing.js';
import type { CheapModeResult } from '../../lambdas/core/schemas/evaluation.js';
import { makeCheapResult, makeJudgedResult, makePattern } from '../support/evaluation.js';

const ALL_HEURISTICS = DEFAULT_HEURISTIC_SIGNALS.map((heuristic) => heuristic.reason);
const pattern = (overrides: Parameters<typeof makePattern>[0]) =>
  makePattern({ type: 'bad', ...overrides });
const cheap = (
  artefactId: string,
  patternsMatched: string[],
  reasons: string[] = ALL_HEURISTICS,
): CheapModeResult => makeCheapResult({ artefactId, rawScore: 2.5, reasons, patternsMatched });
const judged = (artefactId: string, weaknesses: string[]) =>
  makeJudgedResult({ artefactId, weaknesses });

const vague = pattern({
  id: 'p_vague',
  keywords: ['vague', 'unspecific'],
  description: 'too_vague',
});
const sink = pattern({
  id: 'p_sink',
  phrases: ['kitchen sink'],
  description: 'Combines unrelated issues',
});
const goodValue = pattern({ id: 'p_value', type: 'good', keywords: ['vague'] });
const byId = new Map([vague, sink, goodValue].map((p) => [p.id, p]));
const config = DEFAULT_EVALUATION_CONFIG;

describe('Function: patternTokens', () => {
  it('uses keywords, phrases and description, not regexes', () => {
    // Prepare
    const p = pattern({
      keywords: ['Scope'],
      phrases: ['too broad'],
      regexes: ['\\bepic\\b'],
      description: 'kitchen_sink',
    });

    // Act
    const tokens = patternTokens(p);

    // Assess
    expect([...tokens].sort()).toEqual(['broad', 'kitchen', 'scope', 'sink']);
  });
});

describe('Function: cheapSignals', () => {
  it('lists fired bad patterns (not good ones, not unknown ids) and low heuristics', () => {
    // Prepare: every heuristic passed except good_ac
    const result = cheap(
      'a',
      ['p_vague', 'p_value', 'p_unknown', 'p_vague'],
      ALL_HEURISTICS.filter((r) => r !== 'good_ac'),
    );

    // Act
    const ids = cheapSignals(result, byId).map((signal) => signal.id);

    // Assess
    expect(ids).toEqual(['p_vague', 'heuristic:good_ac']);
  });

  it('treats every heuristic as low when no reason was reported', () => {
    expect(cheapSignals(cheap('a', [], []), byId)).toHaveLength(DEFAULT_HEURISTIC_SIGNALS.length);
  });

  it('takes the heuristics as a parameter', () => {
    const custom = [{ reason: 'gates_pass', describes: 'tests gates failing' }];
    expect(cheapSignals(cheap('a', [], []), byId, custom).map((s) => s.id)).toEqual([
      'heuristic:gates_pass',
    ]);
  });
});

describe('Function: matchWeaknesses', () => {
  it('covers a weakness sharing a content word with a fired bad pattern', () => {
    // Prepare
    const [pair] = pairResults(
      [cheap('a', ['p_vague'])],
      [judged('a', ['Acceptance criteria are vague'])],
    ).pairs;

    // Act
    const coverage = matchWeaknesses(pair!, byId, config);

    // Assess
    expect(coverage.weaknesses).toEqual([
      { weakness: 'Acceptance criteria are vague', coveredBy: ['p_vague'] },
    ]);
    expect(coverage.covered).toBe(true);
  });

  it('covers a weakness through a low heuristic', () => {
    const [pair] = pairResults(
      [
        cheap(
          'a',
          [],
          ALL_HEURISTICS.filter((r) => r !== 'appropriate_scope'),
        ),
      ],
      [judged('a', ['Scope is far too broad for one story'])],
    ).pairs;
    expect(matchWeaknesses(pair!, byId, config).weaknesses[0]?.coveredBy).toEqual([
      'heuristic:appropriate_scope',
    ]);
  });

  it('does not match on stop words alone', () => {
    const [pair] = pairResults(
      [cheap('a', ['p_vague'])],
      [judged('a', ['It is not the one'])],
    ).pairs;
    expect(matchWeaknesses(pair!, byId, config).covered).toBe(false);
  });

  it('needs every weakness covered by default, a share when configured', () => {
    // Prepare: one of two weaknesses matched
    const [pair] = pairResults(
      [cheap('a', ['p_sink'])],
      [judged('a', ['Kitchen sink of unrelated changes', 'No estimate given'])],
    ).pairs;

    // Act
    const strict = matchWeaknesses(pair!, byId, config);
    const half = matchWeaknesses(
      pair!,
      byId,
      resolveEvaluationConfig({ coverage: { minWeaknessShare: 0.5 } }),
    );
    const more = matchWeaknesses(
      pair!,
      byId,
      resolveEvaluationConfig({ coverage: { minWeaknessShare: 0.51 } }),
    );

    // Assess
    expect(strict.covered).toBe(false);
    expect(half.covered).toBe(true);
    expect(more.covered).toBe(false);
  });

  it('honours the minimum number of shared tokens', () => {
    const [pair] = pairResults(
      [cheap('a', ['p_sink'])],
      [judged('a', ['kitchen sink story'])],
    ).pairs;
    expect(
      matchWeaknesses(pair!, byId, resolveEvaluationConfig({ coverage: { minSharedTokens: 2 } }))
        .covered,
    ).toBe(true);
    expect(
      matchWeaknesses(pair!, byId, resolveEvaluationConfig({ coverage: { minSharedTokens: 3 } }))
        .covered,
    ).toBe(false);
  });

  it('leaves an artefact without judge weaknesses out (null)', () => {
    const [pair] = pairResults([cheap('a', ['p_vague'])], [judged('a', [])]).pairs;
    expect(matchWeaknesses(pair!, byId, config)).toEqual({
      artefactId: 'a',
      weaknesses: [],
      covered: null,
    });
  });
});

describe('Function: measureCoverage', () => {
  it('is the share of artefacts with weaknesses whose weaknesses were all flagged', () => {
    // Prepare: a covered, b missed, c has no weakness (left out)
    const { pairs } = pairResults(
      [cheap('a', ['p_vague']), cheap('b', []), cheap('c', [])],
      [judged('a', ['vague wording']), judged('b', ['No rollback plan']), judged('c', [])],
    );

    // Act
    const result = measureCoverage(pairs, [vague, sink], config);

    // Assess
    expect(result.coverage).toBe(0.5);
    expect(result.artefacts.map((artefact) => artefact.covered)).toEqual([true, false, null]);
  });

  it('is null when no artefact has a weakness, or there is no artefact', () => {
    const { pairs } = pairResults([cheap('a', [])], [judged('a', [])]);
    expect(measureCoverage(pairs, [], config).coverage).toBeNull();
    expect(measureCoverage([], [], config)).toEqual({ coverage: null, artefacts: [] });
  });
});

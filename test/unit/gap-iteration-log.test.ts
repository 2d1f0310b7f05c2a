import { describe, expect, it } from 'vitest';
import { assessComponentHealth } from '../../lambdas/core/gap/component-health.js';
import { DEFAULT_EVALUATION_CONFIG } from '../../lambdas/core/schemas/evaluation-config.js';
import { checkConvergence } from '../../lambdas/core/gap/convergence.js';
import { detectDivergence } from '../../lambdas/core/gap/divergence.js';
import { buildIterationLog, perArtefactResults } from '../../lambdas/core/gap/iteration-log.js';
import { buildIterationMetrics } from '../../lambdas/core/gap/iteration-metrics.js';
import { assessJudgeReliability } from '../../lambdas/core/gap/judge-reliability.js';
import { pairResults } from '../../lambdas/core/gap/pairing.js';
import { detectRegression } from '../../lambdas/core/gap/regression.js';
import { IterationLogSchema } from '../../lambdas/core/schemas/analysis/log.js';
import type {
  CheapModeResult,
  ExpensiveModeResult,
} from '../../lambdas/core/schemas/evaluation.js';
import { InvalidInputError } from '../../lambdas/core/errors.js';
import {
  GOOD_STORY_REASONS,
  makeCheapResult,
  makeFailedResult,
  makeJudgedResult,
  makePattern,
} from '../support/evaluation.js';

const vague = makePattern({
  id: 'p_vague',
  type: 'bad',
  description: 'too vague',
  keywords: ['vague'],
});
const cheap = (
  artefactId: string,
  gestalt: number,
  patternsMatched: string[] = [],
): CheapModeResult =>
  makeCheapResult({
    artefactId,
    gestalt,
    reasons: GOOD_STORY_REASONS,
    patternsMatched,
    patternsMissed: ['p_tech_path'],
  });
const judged = (
  artefactId: string,
  gestalt: number,
  weaknesses: string[] = [],
): ExpensiveModeResult => makeJudgedResult({ artefactId, gestalt, weaknesses });
const failed = (artefactId: string): ExpensiveModeResult => makeFailedResult({ artefactId });
const config = DEFAULT_EVALUATION_CONFIG;
const cheapResults = [
  cheap('story_2', 3.2),
  cheap('story_1', 4.2, ['p_vague']),
  cheap('story_3', 2.0),
  cheap('story_5', 3),
];
const expensive = [
  judged('story_1', 4.5, ['vague AC']),
  judged('story_2', 4.0),
  failed('story_3'),
  judged('story_4', 4),
];

describe('Function: perArtefactResults', () => {
  it('has a line per artefact either mode saw, sorted, saying what is missing', () => {
    // Act
    const lines = perArtefactResults(cheapResults, expensive, [vague], config);

    // Assess
    expect(
      lines.map(({ artefactId, status, expensiveScore, cheapScore }) => [
        artefactId,
        status,
        expensiveScore,
        cheapScore,
      ]),
    ).toEqual([
      ['story_1', 'paired', 4.5, 4.2],
      ['story_2', 'paired', 4.0, 3.2],
      ['story_3', 'judge_failed', null, 2.0],
      ['story_4', 'cheap_missing', null, null],
      ['story_5', 'judge_missing', null, 3],
    ]);
    expect(lines[0]).toMatchObject({
      gap: 4.5 - 4.2,
      patternsMatched: ['p_vague'],
      patternsMissed: ['p_tech_path'],
      weaknesses: [{ weakness: 'vague AC', coveredBy: ['p_vague'] }],
      covered: true,
      judgeError: null,
    });
    expect(lines[2]).toMatchObject({ gap: null, judgeError: 'RATE_LIMIT_EXCEEDED', covered: null });
  });
});

describe('Function: buildIterationLog', () => {
  it("assembles the document's log from the analysis's pieces and validates it", () => {
    // Prepare
    const patternSet = { version: 2, patterns: [vague] };
    const metrics = buildIterationMetrics(
      {
        iteration: 5,
        timestamp: '2026-01-16T14:30:00Z',
        cheap: cheapResults,
        expensive,
        patternSet,
      },
      config,
    );
    const reliability = assessJudgeReliability(expensive, config);
    const paired = pairResults(cheapResults, expensive);

    // Act
    const log = buildIterationLog(
      {
        metrics,
        cheap: cheapResults,
        expensive,
        patterns: patternSet.patterns,
        componentHealth: assessComponentHealth(
          {
            cheap: cheapResults,
            expensive,
            paired,
            reliability,
            coverage: metrics.coverage,
            patternEvents: [],
          },
          config,
        ),
        judgeReliability: reliability,
        divergence: detectDivergence([metrics], config),
        regression: detectRegression(undefined, metrics, config),
        convergence: checkConvergence([metrics], config),
        actionsTaken: [{ type: 'committed_pattern', patternId: 'p_482', accuracy: 0.8 }],
        nextIterationPlan: { focus: 'improve tech_path detection', proposedPatterns: 5 },
      },
      config,
    );

    // Assess
    expect(IterationLogSchema.parse(log)).toEqual(log);
    expect(log).toMatchObject({
      iteration: 5,
      timestamp: '2026-01-16T14:30:00Z',
      patternSetVersion: 2,
      divergenceCheck: { diverging: false, insufficientData: true },
      regressionCheck: { regression: false, skipped: 'first_iteration' },
      convergenceCheck: { converged: false, failed: ['insufficient_iterations'] },
      actionsTaken: [{ type: 'committed_pattern', patternId: 'p_482' }],
      nextIterationPlan: { focus: 'improve tech_path detection', proposedPatterns: 5 },
    });
    expect(log.componentHealth.expensive_evaluator.flags).toEqual(['judge_unreliable']);
    expect(log.componentHealth.gap_calculator.flags).toEqual(['unpaired_artefacts']);
    expect(log.perArtefactResults).toHaveLength(5);
  });

  it('leaves the plan out when there is none, and refuses pieces that break the schema', () => {
    // Prepare
    const patternSet = { version: 1, patterns: [] };
    const metrics = buildIterationMetrics(
      {
        iteration: 1,
        timestamp: '2026-01-16T14:30:00Z',
        cheap: [cheap('a', 3)],
        expensive: [judged('a', 3)],
        patternSet,
      },
      config,
    );
    const reliability = assessJudgeReliability([judged('a', 3)], config);
    const input = {
      metrics,
      cheap: [cheap('a', 3)],
      expensive: [judged('a', 3)],
      patterns: [],
      componentHealth: assessComponentHealth(
        {
          cheap: [cheap('a', 3)],
          expensive: [judged('a', 3)],
          paired: pairResults([cheap('a', 3)], [judged('a', 3)]),
          reliability,
          coverage: null,
          patternEvents: [],
        },
        config,
      ),
      judgeReliability: reliability,
      divergence: detectDivergence([metrics], config),
      regression: detectRegression(undefined, metrics, config),
      convergence: checkConvergence([metrics], config),
      actionsTaken: [],
    };

    // Act
    const log = buildIterationLog(input, config);
    const broken = () =>
      buildIterationLog({ ...input, metrics: { ...metrics, patternSetVersion: 0 } }, config);

    // Assess
    expect('nextIterationPlan' in log).toBe(false);
    expect(broken).toThrow(InvalidInputError);
  });
});

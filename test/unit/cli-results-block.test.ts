import { stripVTControlCharacters } from 'node:util';
import { describe, expect, it } from 'vitest';
import type { z } from 'zod';
import {
  convergenceLine,
  evaluationSegment,
  evaluationTable,
} from '../../bin/cli/evaluation-render.js';
import { signed } from '../../bin/cli/figures.js';
import { iterationLine, runStatusText, tasksTable } from '../../bin/cli/render.js';
import { renderResultsBlock, type ResultsView } from '../../bin/cli/results-block.js';
import { resultsFromLog } from '../../bin/cli/results-from-log.js';
import { checkConvergence } from '../../lambdas/core/gap/convergence.js';
import {
  StoredIterationLogSchema,
  type StoredIterationLog,
} from '../../lambdas/core/schemas/analysis/log.js';
import { resultsFromOutcome } from '../../bin/cli/results-from-outcome.js';
import { measureAgreement } from '../../lambdas/core/gap/agreement.js';
import { DEFAULT_EVALUATION_CONFIG } from '../../lambdas/core/schemas/evaluation-config.js';
import { measureCoverage } from '../../lambdas/core/gap/coverage.js';
import { iterationGap } from '../../lambdas/core/gap/gap.js';
import { pairResults } from '../../lambdas/core/gap/pairing.js';
import type { EvaluationOutcome } from '../../lambdas/core/steps/evaluate-artefacts.js';
import type { JudgedArtefact, JudgeRun } from '../../lambdas/core/judge/verdict.js';
import {
  IterationEvaluationSummarySchema,
  type IterationEvaluationSummary,
} from '../../lambdas/core/schemas/evaluation-records.js';
import { TEST_USAGE, makeCheapResult, makeJudgedResult } from '../support/evaluation.js';
import { makeIteration, makeRun, makeTask } from '../support/records.js';

const TIMESTAMP = '2026-01-16T14:30:00.000Z';
const config = DEFAULT_EVALUATION_CONFIG;
const thresholds = config.convergence;
const EPSILON = 1e-6;
/** How a summary words a convergence that does not hold (see describeConvergence). */
const NOT_CONVERGED = 'cheap 3.47 < 4.0, |gap| 0.73 > 0.5, ρ 0.50 < 0.6, QWK 0.40 < 0.6';
const CONVERGED =
  'cheap ≥ 4.0 (4.31), |gap| ≤ 0.5 (0.22), ρ ≥ 0.6 (0.81), QWK ≥ 0.6 (0.72) over 2 iterations';

type LogInput = z.input<typeof StoredIterationLogSchema>;

const healthy = { healthy: true, flags: [], details: {} };

/** A stored log: the design document's iteration 5, with the fields analyze-gap adds. */
function makeLog(overrides: Partial<LogInput> = {}): StoredIterationLog {
  return StoredIterationLogSchema.parse({
    iteration: 5,
    timestamp: TIMESTAMP,
    patternSetVersion: 3,
    componentHealth: {
      cheap_evaluator: healthy,
      expensive_evaluator: healthy,
      gap_calculator: healthy,
      pattern_learner: { healthy: true, flags: ['high_rejection_rate'], details: {} },
    },
    metrics: {
      iteration: 5,
      timestamp: TIMESTAMP,
      patternSetVersion: 3,
      artefactIds: ['story_1', 'story_2'],
      expensiveAvg: 4.2,
      cheapAvg: 3.8,
      gap: 0.4,
      gapDelta: -0.1,
      mae: 0.45,
      spearman: 0.8,
      qwk: 0.7,
      coverage: 0.5,
      patternCount: 485,
      provisionalPatterns: 12,
      patternsCommitted: 3,
      patternsRejected: 2,
      failedEvaluations: 1,
      judgeFailureRate: 1 / 3,
      judgeReliable: true,
      regressionDetected: false,
    },
    judgeReliability: {
      total: 3,
      failed: 1,
      failedArtefactIds: ['story_3'],
      failureRate: 1 / 3,
      unreliable: false,
      highVariance: [],
    },
    divergenceCheck: {
      diverging: false,
      reason: null,
      insufficientData: false,
      diagnosis: null,
      patternExplosion: false,
      iterations: [4, 5],
      gaps: [0.5, 0.4],
      lastKnownGoodVersion: null,
      previousVersion: 2,
    },
    regressionCheck: {
      regression: false,
      skipped: null,
      patternSetChanged: true,
      judgeComparable: true,
      previousVersion: 2,
      currentVersion: 3,
      triggers: [],
      verdict: 'keep',
      rollbackToVersion: null,
    },
    perArtefactResults: [
      perArtefact('story_1', 4.5, 4.2, ['has_clear_user_problem']),
      perArtefact('story_2', 3.9, 3.4, []),
      {
        ...perArtefact('story_3', null, 3, []),
        status: 'judge_failed',
        judgeError: 'RATE_LIMIT_EXCEEDED',
      },
    ],
    actionsTaken: [
      { type: 'committed_pattern', patternId: 'p_482', accuracy: 0.9 },
      { type: 'rejected_pattern', patternId: 'p_479', accuracy: 0.2 },
    ],
    convergenceCheck: {
      converged: false,
      failed: ['cheapThreshold'],
      checks: {
        minIterations: true,
        consecutiveIterations: true,
        sameArtefacts: true,
        cheapThreshold: false,
        gapThreshold: true,
        judgeReliable: true,
        patternsStable: true,
        noDivergence: true,
        noRegressions: true,
      },
      evidence: null,
      proof: null,
    },
    nextIterationPlan: { focus: 'improve tech_path detection', proposedPatterns: 5 },
    actionsCarriedOut: [],
    proposals: { learned: false, reason: '|gap| 0.40 is within 0.5', proposed: [] },
    judgeRerun: false,
    nextPatternSetVersion: 4,
    ...overrides,
  });
}

function perArtefact(
  artefactId: string,
  expensiveScore: number | null,
  cheapScore: number | null,
  patternsMatched: string[],
  weakness?: string,
) {
  return {
    artefactId,
    status: 'paired' as const,
    expensiveScore,
    cheapScore,
    gap: expensiveScore === null || cheapScore === null ? null : expensiveScore - cheapScore,
    patternsMatched,
    patternsMissed: [],
    judgeError: null,
    weaknesses: weakness ? [{ weakness, coveredBy: [] }] : [],
    covered: null,
  };
}

function makeSummary(
  overrides: Partial<z.input<typeof IterationEvaluationSummarySchema>> = {},
): IterationEvaluationSummary {
  return IterationEvaluationSummarySchema.parse({
    artefacts: 3,
    judged: 2,
    judgeFailed: 1,
    judgeUnreliable: false,
    judgeRerun: false,
    expensiveAvg: 4.2,
    cheapAvg: 3.47,
    gap: 0.73,
    gapDelta: -0.12,
    mae: 0.8,
    spearman: 0.5,
    qwk: 0.4,
    coverage: 0.75,
    patternSetVersion: 3,
    nextPatternSetVersion: 4,
    activePatterns: 12,
    provisionalPatterns: 3,
    patternsProposed: 5,
    patternsCommitted: 3,
    patternsRejected: 2,
    regression: false,
    converged: false,
    convergence: NOT_CONVERGED,
    costUsd: 0.0123,
    logKey: 'runs/run-1/iterations/5/log.json',
    ...overrides,
  });
}

/** The lines of one section of a block: from its heading to the next blank line. */
function section(block: string, heading: string): string[] {
  const lines = block.split('\n');
  const start = lines.indexOf(heading);
  if (start < 0) throw new Error(`no ${heading} in\n${block}`);
  const end = lines.indexOf('', start);
  return lines.slice(start + 1, end < 0 ? undefined : end);
}

const gapLine = (view: ResultsView) => section(renderResultsBlock(view), 'GAP ANALYSIS:')[0];

describe('Function: signed', () => {
  it.each([
    [0.734, '+0.73'],
    [-0.12, '−0.12'],
    [0.004, '0.00'],
    [-0.004, '0.00'],
    [-0.006, '−0.01'],
    [0, '0.00'],
    [null, '—'],
  ])('writes %s as %s', (value, text) => {
    expect(signed(value)).toBe(text);
  });
});

describe('Function: renderResultsBlock', () => {
  const view = (gap: number | null, threshold = 0.5): ResultsView => ({
    title: 'Iteration 2 Results',
    thresholds: { gap: threshold, cheap: 4 },
    gap: { gap, mae: 0.1, spearman: 1, qwk: 1, coverage: 1, large: [], judgeFailed: [] },
  });

  it.each([
    [0.5 - EPSILON, '✓'],
    [0.5, '✓'],
    [0.5 + EPSILON, '✗'],
    [-0.5, '✓'],
    [-0.5 - EPSILON, '✗'],
  ])('marks a gap of %s against a 0.5 target with %s', (gap, mark) => {
    expect(gapLine(view(gap))).toBe(`  Gap: ${gap.toFixed(2)} (target: <= 0.5) ${mark}`);
  });

  it('marks nothing when there is no gap, and names the configured target', () => {
    expect(gapLine(view(null))).toBe('  Gap: — (target: <= 0.5)');
    expect(gapLine(view(0.4, 0.3))).toBe('  Gap: 0.40 (target: <= 0.3) ✗');
  });

  it('prints only the sections the view has, the title first and the decision last', () => {
    // Act
    const block = renderResultsBlock({ ...view(0.2), decision: 'keep going' });

    // Assess
    expect(block).toBe(
      [
        '=== Iteration 2 Results ===',
        '',
        'GAP ANALYSIS:',
        '  Gap: 0.20 (target: <= 0.5) ✓',
        '  Agreement: MAE 0.10, Spearman 1.00, QWK 1.00, coverage 100%',
        '',
        'DECISION: keep going',
      ].join('\n'),
    );
    expect(renderResultsBlock(view(0.2)).endsWith('coverage 100%')).toBe(true);
  });

  it('says "none" for an empty list section and gives the failure share of the judge', () => {
    const block = renderResultsBlock({
      title: 'T',
      thresholds: { gap: 0.5, cheap: 4 },
      expensive: { average: 3, judged: 3, failed: 1, unreliable: true },
      actions: [],
    });
    expect(section(block, 'EXPENSIVE MODE:')).toEqual([
      '  Gestalt avg: 3.00',
      '  Evaluated: 3 ok, 1 failed (25%) — UNRELIABLE',
    ]);
    expect(section(block, 'ACTIONS TAKEN:')).toEqual(['  none']);
  });
});

describe('Function: resultsFromLog', () => {
  it('prints every section of the design document from the stored log', () => {
    // Act
    const block = renderResultsBlock(resultsFromLog(makeLog(), makeSummary(), thresholds));

    // Assess
    expect(block.split('\n')[0]).toBe('=== Iteration 5 Results ===');
    expect(section(block, 'EXPENSIVE MODE:')).toEqual([
      '  Gestalt avg: 4.20',
      '  Evaluated: 2 ok, 1 failed (33%)',
      '  Cost: $0.0123 (judge and proposer)',
    ]);
    expect(section(block, 'CHEAP MODE:')).toEqual([
      '  Gestalt avg: 3.80',
      // story_1 matched a pattern, story_2 none; story_3 counts (it has a cheap score).
      '  Pattern match: 33% of artefacts',
      '  Patterns: 485 active, 12 provisional (set v3)',
    ]);
    expect(section(block, 'GAP ANALYSIS:')).toEqual([
      '  Gap: 0.40 (target: <= 0.5) ✓',
      '  Delta: −0.10 since the previous iteration',
      '  Agreement: MAE 0.45, Spearman 0.80, QWK 0.70, coverage 50%',
      '  Left out (judge failed): story_3',
    ]);
    expect(section(block, 'PATTERN LEARNING:')).toEqual([
      '  Proposed 5, committed 3, rejected 2, pruned 0, merged 0',
      '  Rolled back to: no (no regression)',
      '  Next iteration scores with: v4',
      '  Proposer: |gap| 0.40 is within 0.5',
    ]);
    expect(section(block, 'COMPONENT HEALTH:')).toEqual([
      '  ✓ cheap_evaluator',
      '  ✓ expensive_evaluator',
      '  ✓ gap_calculator',
      '  ✓ pattern_learner: high_rejection_rate',
    ]);
    expect(section(block, 'DIVERGENCE:')).toEqual([
      '  ✓ none',
      '  |gap| over iterations 4, 5: 0.50, 0.40',
      '  ✓ regression: none',
    ]);
    expect(section(block, 'ACTIONS TAKEN:')).toEqual(['  none']);
    expect(section(block, 'CONVERGENCE:')).toEqual([
      '  ✓ at least 2 iterations',
      '  ✓ the last 2 iterations follow each other',
      '  ✓ the same artefacts each time',
      '  ✗ cheap avg >= 4 each time',
      '  ✓ |gap| <= 0.5 each time',
      '  ✓ the judge reliable each time',
      '  ✓ active patterns change by < 10',
      '  ✓ no divergence',
      '  ✓ no regression',
      '  Not yet converged: 1 of 9 checks failed',
    ]);
    expect(block.split('\n').at(-1)).toBe(
      'DECISION: continuing: improve tech_path detection (5 patterns proposed)',
    );
  });

  it('lists a paired artefact only when its gap exceeds the threshold, either way', () => {
    // Prepare
    const log = makeLog({
      perArtefactResults: [
        perArtefact('at', 4.5, 4, [], 'at the threshold'),
        perArtefact('above', 4.5 + EPSILON, 4, [], 'vague value'),
        perArtefact('below', 3, 3.5 + EPSILON, [], 'over-scored'),
        { ...perArtefact('failed', null, 2, []), status: 'judge_failed' },
      ],
    });

    // Act
    const large = resultsFromLog(log, makeSummary(), thresholds).gap?.large;

    // Assess
    expect(large?.map((pair) => [pair.artefactId, pair.judgeNote])).toEqual([
      ['above', 'vague value'],
      ['below', 'over-scored'],
    ]);
    const block = renderResultsBlock(resultsFromLog(log, makeSummary(), thresholds));
    expect(block).toContain(
      '  Artefacts with large gap (> 0.5):\n    - above: exp=4.5, cheap=4.0 (gap=0.5)\n      Judge: vague value',
    );
  });

  it('judges the gap by the thresholds the analysis used, over the run config', () => {
    // Prepare
    const evidence = {
      iterationsChecked: [4, 5],
      artefactIds: [['story_1'], ['story_1']],
      cheapScores: [3.8, 3.8],
      expensiveScores: [4.2, 4.2],
      gaps: [0.4, 0.4],
      patternCounts: [485, 485],
      patternSetVersions: [3, 3],
      agreement: [],
      thresholds: {
        cheapThreshold: 3.5,
        gapThreshold: 0.3,
        stableIterations: 3,
        maxPatternCountChange: 5,
        minIterations: 4,
      },
    };
    const log = makeLog({ convergenceCheck: { ...makeLog().convergenceCheck, evidence } });

    // Act
    const block = renderResultsBlock(resultsFromLog(log, makeSummary(), thresholds));

    // Assess
    expect(section(block, 'GAP ANALYSIS:')[0]).toBe('  Gap: 0.40 (target: <= 0.3) ✗');
    expect(section(block, 'CONVERGENCE:').slice(0, 2)).toEqual([
      '  ✓ at least 4 iterations',
      '  ✓ the last 3 iterations follow each other',
    ]);
  });

  it('shows a rollback with its triggers, and the recovery actions carried out or only planned', () => {
    // Prepare
    const log = makeLog({
      regressionCheck: {
        ...makeLog().regressionCheck,
        regression: true,
        verdict: 'rollback',
        rollbackToVersion: 2,
        triggers: [
          {
            type: 'gap_increased',
            metric: 'gap',
            previous: 0.3,
            current: 0.9,
            delta: 0.6,
            threshold: 0.1,
          },
        ],
      },
      actionsTaken: [
        { type: 'pruned_pattern', patternId: 'p_1', reason: 'unused' },
        { type: 'pruned_pattern', patternId: 'p_2', reason: 'low_weight' },
        { type: 'merged_patterns', keptId: 'p_3', mergedIds: ['p_4'] },
        {
          type: 'rollback_patterns',
          toVersion: 2,
          trigger: 'regression',
          documentAction: 'rollback_patterns',
          description: 'Revert pattern changes',
        },
        {
          type: 'reduce_learning_rate',
          factor: 0.5,
          trigger: 'gap_increasing',
          documentAction: 'reduce_learning_rate',
          description: 'Make smaller pattern changes',
        },
      ],
      actionsCarriedOut: ['rerun_judge', 'rollback_patterns'],
      judgeRerun: true,
      rolledBackTo: 2,
      nextPatternSetVersion: 2,
    });

    // Act
    const block = renderResultsBlock(resultsFromLog(log, makeSummary(), thresholds));

    // Assess
    expect(section(block, 'EXPENSIVE MODE:')).toContain(
      '  Re-run: the judge was re-run and the median of its runs taken',
    );
    expect(section(block, 'PATTERN LEARNING:').slice(0, 3)).toEqual([
      '  Proposed 5, committed 3, rejected 2, pruned 2, merged 1',
      '  Rolled back to: v2 (gap_increased: gap 0.30 → 0.90)',
      '  Next iteration scores with: v2',
    ]);
    expect(section(block, 'ACTIONS TAKEN:')).toEqual([
      '  ✓ rollback_patterns: Revert pattern changes (regression)',
      '  · reduce_learning_rate: Make smaller pattern changes (gap_increasing; planned, not carried out)',
      '  ✓ rerun_judge (the judge was unreliable)',
    ]);
    expect(section(block, 'DIVERGENCE:')).toContain(
      '  ✗ regression: gap_increased: gap 0.30 → 0.90 (verdict: rollback)',
    );
    expect(block.split('\n').at(-1)).toBe(
      'DECISION: regression: the pattern set was rolled back to v2, continuing from it',
    );
  });

  it('says how divergence and convergence stand before there are enough iterations', () => {
    // Prepare
    const log = makeLog({
      divergenceCheck: { ...makeLog().divergenceCheck, insufficientData: true },
      regressionCheck: { ...makeLog().regressionCheck, skipped: 'first_iteration' },
      convergenceCheck: {
        converged: false,
        failed: ['insufficient_iterations'],
        checks: null,
        evidence: null,
        proof: null,
      },
      nextIterationPlan: undefined,
      metrics: { ...makeLog().metrics, gapDelta: null },
    });

    // Act
    const block = renderResultsBlock(resultsFromLog(log, makeSummary(), thresholds));

    // Assess
    expect(section(block, 'GAP ANALYSIS:')[1]).toBe('  Delta: — (no previous gap)');
    expect(section(block, 'DIVERGENCE:')).toEqual([
      '  ✓ none (too few iterations to tell)',
      '  |gap| over iterations 4, 5: 0.50, 0.40',
      '  ✓ regression: nothing to compare with yet',
    ]);
    expect(section(block, 'CONVERGENCE:')).toEqual([
      '  Not yet: fewer than 2 evaluated iterations to compare',
    ]);
    expect(block.split('\n').at(-1)).toBe('DECISION: not converged yet, continuing optimisation');
  });

  it('shows a diverging gap with its diagnosis, and a converged run', () => {
    // Prepare
    const diverging = makeLog({
      divergenceCheck: {
        ...makeLog().divergenceCheck,
        diverging: true,
        reason: 'gap_increasing',
        diagnosis: 'cheap_mode_degraded',
        patternExplosion: true,
        lastKnownGoodVersion: 1,
      },
      nextIterationPlan: undefined,
    });
    const checks = {
      minIterations: true,
      consecutiveIterations: true,
      sameArtefacts: true,
      cheapThreshold: true,
      gapThreshold: true,
      judgeReliable: true,
      patternsStable: true,
      noDivergence: true,
      noRegressions: true,
    };
    const converged = makeLog({
      convergenceCheck: { ...makeLog().convergenceCheck, converged: true, failed: [], checks },
    });

    // Act
    const divergingBlock = renderResultsBlock(resultsFromLog(diverging, makeSummary(), thresholds));
    const convergedBlock = renderResultsBlock(resultsFromLog(converged, makeSummary(), thresholds));

    // Assess
    expect(section(divergingBlock, 'DIVERGENCE:').slice(0, 2)).toEqual([
      '  ✗ gap_increasing (diagnosis: cheap_mode_degraded); last known good set v1',
      '  ✗ pattern explosion: active patterns grew too fast',
    ]);
    expect(divergingBlock.split('\n').at(-1)).toBe(
      'DECISION: diverging (gap_increasing): recovery actions taken, continuing',
    );
    expect(section(convergedBlock, 'CONVERGENCE:').at(-1)).toBe('  Converged ✓');
    expect(section(convergedBlock, 'CONVERGENCE:').filter((line) => line.includes('✗'))).toEqual(
      [],
    );
    expect(convergedBlock.split('\n').at(-1)).toBe(
      'DECISION: converged: the cheap mode alone tracks the judge on these artefacts',
    );
  });

  it('gives each check its reason with the number, as the analysis now writes them', () => {
    // Prepare: cheap and gap held, the ranking agreement did not
    const window = [4, 5].map((iteration) => ({
      ...makeLog().metrics,
      iteration,
      artefactIds: ['s1', 's2', 's3', 's4', 's5'],
      cheapAvg: 4.2,
      gap: 0.3,
      spearman: 0.3,
      qwk: 0,
    }));
    const log = makeLog({ convergenceCheck: checkConvergence(window, config) });

    // Act
    const block = renderResultsBlock(resultsFromLog(log, makeSummary(), thresholds));

    // Assess
    expect(section(block, 'CONVERGENCE:')).toEqual([
      '  ✓ iteration 5 ≥ 2',
      '  ✓ iterations 4, 5 follow each other',
      '  ✓ the same 5 artefacts',
      '  ✓ cheap ≥ 4.0 (4.20)',
      '  ✓ |gap| ≤ 0.5 (0.30)',
      '  ✗ ρ 0.30 < 0.6',
      '  ✗ QWK 0.00 < 0.6',
      '  ✓ the judge reliable',
      '  ✓ active patterns change by < 10 (0)',
      '  ✓ no divergence',
      '  ✓ no regression',
      '  Not yet converged: ρ 0.30 < 0.6, QWK 0.00 < 0.6 (cheap ≥ 4.0 held, |gap| ≤ 0.5 held)',
    ]);
  });

  it('refuses a log that is not the iteration log, and keeps fields it does not know', () => {
    expect(StoredIterationLogSchema.safeParse({ iteration: 1 }).success).toBe(false);
    const log = StoredIterationLogSchema.parse({ ...makeLog(), rescored: [] });
    expect(log).toHaveProperty('rescored', []);
  });
});

describe('Function: resultsFromOutcome', () => {
  /** A dual-mode outcome over artefacts given as [id, judge score, cheap score]. */
  function dualOutcome(scores: [string, number, number][]): EvaluationOutcome {
    const results: JudgedArtefact[] = scores.map(([artefactId, gestalt]) => ({
      result: makeJudgedResult({ artefactId, gestalt, weaknesses: [`weak ${artefactId}`] }),
      samples: [],
      highVariance: false,
    }));
    const final: JudgeRun = {
      model: 'judge',
      runs: 1,
      results,
      usage: TEST_USAGE,
      calls: scores.length,
      judged: scores.length,
      failed: 0,
      failureRate: 0,
      unreliable: false,
      highVariance: false,
      averageGestalt: scores.reduce((sum, [, score]) => sum + score, 0) / scores.length,
    };
    const cheap = scores.map(([artefactId, , gestalt]) => makeCheapResult({ artefactId, gestalt }));
    const paired = pairResults(
      cheap,
      results.map((judged) => judged.result),
    );
    return {
      mode: 'dual',
      cheap,
      expensive: { final, rerun: false, usage: TEST_USAGE },
      dual: {
        paired,
        gap: iterationGap(paired.pairs),
        agreement: measureAgreement(paired.pairs),
        criteria: [],
        coverage: measureCoverage(paired.pairs, [], config),
      },
    };
  }

  const decisionOf = (outcome: EvaluationOutcome) =>
    renderResultsBlock(resultsFromOutcome('Evaluation Results', outcome, thresholds))
      .split('\n')
      .at(-1);

  /** Five artefacts the two modes rank alike, the judge `shift` below the cheap mode. */
  const agreeing = (cheapTop: number, shift = 0.3): [string, number, number][] =>
    [0, 0.5, 1, 1.5, 2].map((down, i) => [`s${i}`, cheapTop - down - shift, cheapTop - down]);

  it('lets the cheap mode stand alone when every rule holds, naming each with its number', () => {
    expect(decisionOf(dualOutcome(agreeing(5)))).toBe(
      'DECISION: the cheap mode is good enough alone and tracks the judge here: cheap ≥ 4.0 (4.00), |gap| ≤ 0.5 (0.30), ρ ≥ 0.6 (1.00), QWK ≥ 0.6 (0.69)',
    );
  });

  it('does not when the cheap average is below 4.0, or the gap above 0.5', () => {
    expect(decisionOf(dualOutcome(agreeing(5 - 0.05)))).toBe(
      'DECISION: the cheap mode does not yet stand alone: cheap 3.95 < 4.0',
    );
    expect(decisionOf(dualOutcome(agreeing(5, 0.6)))).toBe(
      'DECISION: the cheap mode does not yet stand alone: |gap| 0.60 > 0.5: learn patterns from the large gaps, QWK 0.53 < 0.6',
    );
  });

  it('does not when the averages agree but the ranking does not', () => {
    // The same scores, the cheap ones in the opposite order: equal means, opposite ranks.
    const scores = agreeing(5, 0);
    const reversed = scores.map(([id, judge], i): [string, number, number] => [
      id,
      judge,
      scores[scores.length - 1 - i]![2],
    ]);
    expect(decisionOf(dualOutcome(reversed))).toMatch(
      /^DECISION: the cheap mode does not yet stand alone: ρ -1\.00 < 0\.6, QWK -?\d\.\d\d < 0\.6$/,
    );
  });

  it('says so when there are too few artefacts to measure agreement', () => {
    expect(decisionOf(dualOutcome([['s1', 4.3, 4]]))).toBe(
      'DECISION: the cheap mode does not yet stand alone: too few artefacts to measure agreement: 1 < 5',
    );
  });

  it('prints both modes and the large gaps, and no loop sections', () => {
    // Act
    const block = renderResultsBlock(
      resultsFromOutcome(
        'Evaluation Results',
        dualOutcome([
          ['s1', 4.5, 3],
          ['s2', 3, 3],
        ]),
        thresholds,
        { offlineJudge: true },
      ),
    );

    // Assess
    expect(section(block, 'EXPENSIVE MODE:')).toEqual([
      '  Gestalt avg: 3.75',
      '  Evaluated: 2 ok, 0 failed (0%)',
      '  Cost: 1 tokens in, 1 out · $0.0000 (what the model would cost; the offline judge costs nothing)',
    ]);
    expect(section(block, 'CHEAP MODE:')).toEqual([
      '  Gestalt avg: 3.00',
      '  Pattern match: 0% of artefacts',
    ]);
    expect(block).toContain('    - s1: exp=4.5, cheap=3.0 (gap=1.5)\n      Judge: weak s1');
    expect(block).not.toContain('s2: exp');
    for (const heading of ['PATTERN LEARNING:', 'COMPONENT HEALTH:', 'CONVERGENCE:'])
      expect(block).not.toContain(heading);
  });

  it('prints the cheap mode alone when the judge did not run', () => {
    const block = renderResultsBlock(
      resultsFromOutcome(
        'Evaluation Results',
        { mode: 'cheap', cheap: [makeCheapResult({ patternsMatched: ['p_1'] })] },
        thresholds,
      ),
    );
    expect(block).toBe(
      [
        '=== Evaluation Results ===',
        '',
        'CHEAP MODE:',
        '  Gestalt avg: 3.00',
        '  Pattern match: 100% of artefacts',
      ].join('\n'),
    );
  });
});

describe('Function: evaluationSegment', () => {
  it('gives both averages, the signed gap, its change, the pattern counts and the failed rules', () => {
    expect(evaluationSegment(makeSummary())).toBe(
      `judge 4.20 · cheap 3.47 · gap +0.73 (Δ −0.12) · patterns 12 active, 3 provisional · not converged: ${NOT_CONVERGED}`,
    );
  });

  it('leaves out the change on the first iteration and says by which rules the run converged', () => {
    expect(
      evaluationSegment(
        makeSummary({ gapDelta: null, gap: -0.2, converged: true, convergence: CONVERGED }),
      ),
    ).toBe(
      `judge 4.20 · cheap 3.47 · gap −0.20 · patterns 12 active, 3 provisional · converged ✓: ${CONVERGED}`,
    );
  });

  it('marks an unreliable judge, a missing figure and a rollback', () => {
    expect(
      evaluationSegment(
        makeSummary({
          expensiveAvg: null,
          gap: null,
          judgeUnreliable: true,
          rolledBackTo: 2,
          convergence: 'no gap (no artefact scored by both modes)',
        }),
      ),
    ).toBe(
      'judge — (unreliable) · cheap 3.47 · gap — (Δ −0.12) · patterns 12 active, 3 provisional · rolled back to v2 · not converged: no gap (no artefact scored by both modes)',
    );
  });

  it('reads the words of summaries stored before the rules gave numbers', () => {
    const segment = (converged: boolean, convergence: string) =>
      evaluationSegment(makeSummary({ converged, convergence })).split(' · ').at(-1);
    expect(segment(true, 'converged: every check held')).toBe('converged ✓: every check held');
    expect(segment(false, 'not yet: cheapThreshold, minIterations')).toBe(
      'not converged: cheapThreshold, minIterations',
    );
  });

  it('is appended to the live line of an evaluated iteration only', () => {
    const plain = makeIteration({ status: 'recorded', outcome: 'passed' });
    const evaluated = makeIteration({ ...plain, evaluation: makeSummary() });
    expect(iterationLine(plain)).not.toContain('judge');
    expect(iterationLine(evaluated)).toMatch(
      /^#1 +US-001 +✓ passed .+ {2,}judge 4\.20 · cheap 3\.47 · gap \+0\.73 \(Δ −0\.12\) · patterns 12 active, 3 provisional · not converged: cheap 3\.47 < 4\.0, .+$/,
    );
    expect(iterationLine(evaluated).split('\n')).toHaveLength(1);
  });
});

describe('Function: evaluationTable and convergenceLine', () => {
  const describeArtefact = (key: string) => `/data/${key}`;
  const iterations = [
    makeIteration({ iteration: 1, evaluation: makeSummary({ gapDelta: null }) }),
    makeIteration({ iteration: 2 }),
    makeIteration({
      iteration: 3,
      evaluation: makeSummary({
        actions: ['prune_patterns'],
        converged: true,
        convergence: CONVERGED,
      }),
    }),
  ];

  it('has a row per evaluated iteration with its figures', () => {
    // Act
    const rows = stripVTControlCharacters(evaluationTable(iterations))
      .split('\n')
      .filter((line) => /^│ \d/.test(line))
      .map((line) =>
        line
          .split('│')
          .slice(1, -1)
          .map((cell) => cell.trim()),
      );

    // Assess
    expect(rows).toEqual([
      ['1', '4.20', '3.47', '+0.73', '—', '0.80', '0.50', '0.40', '75%', '12 / 3', '—', '✗'],
      [
        '3',
        '4.20',
        '3.47',
        '+0.73',
        '−0.12',
        '0.80',
        '0.50',
        '0.40',
        '75%',
        '12 / 3',
        'prune_patterns',
        '✓',
      ],
    ]);
  });

  it('says by which rules and where the proof is once converged, and why not otherwise', () => {
    const converged = makeRun({
      evaluation: { converged: true, convergedIteration: 3, proofKey: 'runs/run-1/proof.json' },
    });
    expect(convergenceLine(converged, iterations, describeArtefact)).toBe(
      `converged at iteration 3: ${CONVERGED} · proof: /data/runs/run-1/proof.json`,
    );
    expect(
      convergenceLine(makeRun({ evaluation: {} }), iterations.slice(0, 2), describeArtefact),
    ).toBe(`not converged after iteration 1: ${NOT_CONVERGED}`);
    // A summary stored before the rules gave numbers.
    const older = [
      makeIteration({
        iteration: 1,
        evaluation: makeSummary({ convergence: 'not yet: gapThreshold' }),
      }),
    ];
    expect(convergenceLine(makeRun({ evaluation: {} }), older, describeArtefact)).toBe(
      'not converged after iteration 1: gapThreshold',
    );
    expect(convergenceLine(makeRun(), [], describeArtefact)).toBe(
      'not converged: no iteration evaluated yet',
    );
  });

  it('adds where the evaluation stands to the status of a run that evaluates, only', () => {
    const line = (run: Parameters<typeof runStatusText>[0]) =>
      runStatusText(run, [])
        .split('\n')
        .find((text) => text.startsWith('evaluation '));
    expect(line(makeRun())).toBeUndefined();
    expect(line(makeRun({ evaluation: { lastAnalysedIteration: 2 } }))).toBe(
      'evaluation not converged (analysed through iteration 2)',
    );
    expect(line(makeRun({ evaluation: { converged: true, convergedIteration: 3 } }))).toBe(
      'evaluation converged at iteration 3',
    );
  });
});

describe('Function: tasksTable — review', () => {
  const missingTests = {
    kind: 'missing_tests' as const,
    message: '3 source lines added in 1 file (src/a.ts) and no test file changed',
  };
  const audit = {
    kind: 'security' as const,
    gate: 'audit',
    message: '1 moderate vulnerability reported (not blocking)',
  };
  const rowOf = (table: string, taskId: string) =>
    table.split('\n').find((line) => line.includes(` ${taskId} `)) ?? '';

  it('shows a task in review with its number of findings, and the findings under the table', () => {
    // Prepare
    const tasks = [
      makeTask({
        taskId: 'US-001',
        status: 'in_review',
        review: { findings: [missingTests, audit], iteration: 2 },
      }),
      makeTask({
        taskId: 'US-002',
        title: 'Second story',
        priority: 2,
        status: 'complete',
        review: { findings: [audit], reviews: 1, iteration: 4 },
      }),
      makeTask({ taskId: 'US-003', title: 'Third story', priority: 3, status: 'complete' }),
    ];

    // Act
    const table = stripVTControlCharacters(tasksTable(tasks));

    // Assess
    expect(rowOf(table, 'US-001')).toContain('in review (2 findings)');
    expect(rowOf(table, 'US-002')).toContain('✓ passes (1 finding)');
    expect(rowOf(table, 'US-003')).toMatch(/✓ passes\s/);
    expect(table.split('\n').slice(-7)).toEqual([
      expect.stringMatching(/^└/),
      'review findings',
      '  US-001 (in review; findings of iteration 2)',
      '    [missing tests] 3 source lines added in 1 file (src/a.ts) and no test file changed',
      '    [security] audit: 1 moderate vulnerability reported (not blocking)',
      '  US-002 (complete; findings of iteration 4)',
      '    [security] audit: 1 moderate vulnerability reported (not blocking)',
    ]);
  });

  it('ends at the table when no task has findings (a clean review leaves an empty list)', () => {
    const tasks = [
      makeTask({ status: 'complete', review: { findings: [], reviews: 1, iteration: 3 } }),
    ];

    const table = stripVTControlCharacters(tasksTable(tasks));

    expect(table.split('\n').at(-1)).toMatch(/^└/);
    expect(table).not.toContain('review findings');
    expect(rowOf(table, 'US-001')).toMatch(/✓ passes\s/);
  });
});

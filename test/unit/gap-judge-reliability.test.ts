import { describe, expect, it } from 'vitest';
import {
  DEFAULT_EVALUATION_CONFIG,
  resolveEvaluationConfig,
} from '../../lambdas/core/schemas/evaluation-config.js';
import { assessJudgeReliability } from '../../lambdas/core/gap/judge-reliability.js';
import type { ExpensiveModeResult } from '../../lambdas/core/schemas/evaluation.js';
import { makeFailedResult, makeJudgedResult } from '../support/evaluation.js';

const usage = { inputTokens: 100, outputTokens: 10, costUsd: 0.5 };
const ok = (
  artefactId: string,
  gestalt: number,
  extra: Partial<ExpensiveModeResult> = {},
): ExpensiveModeResult =>
  makeJudgedResult({
    artefactId,
    gestalt,
    reasoning: `scored ${gestalt}`,
    strengths: [`s${gestalt}`],
    weaknesses: [`w${gestalt}`],
    usage,
    ...extra,
  } as Parameters<typeof makeJudgedResult>[0]);
const failed = (artefactId: string, error = 'RATE_LIMIT_EXCEEDED'): ExpensiveModeResult =>
  makeFailedResult({ artefactId, error, usage });
const batch = (failures: number, total: number): ExpensiveModeResult[] =>
  Array.from({ length: total }, (_, index) =>
    index < failures ? failed(`s${index}`) : ok(`s${index}`, 4),
  );
const config = DEFAULT_EVALUATION_CONFIG;

describe('Function: assessJudgeReliability', () => {
  it.each([
    [0, 10, false],
    [2, 10, false],
    [3, 10, true],
    [1, 5, false],
    [2, 5, true],
    [1, 4, true],
    [10, 10, true],
  ])(
    'with %i of %i failed is unreliable: %s (limit: more than 20%)',
    (failures, total, unreliable) => {
      // Act
      const reliability = assessJudgeReliability(batch(failures, total), config);

      // Assess
      expect(reliability.unreliable).toBe(unreliable);
      expect(reliability.failed).toBe(failures);
      expect(reliability.failureRate).toBe(failures / total);
    },
  );

  it('lists the failed artefacts, sorted', () => {
    const reliability = assessJudgeReliability([failed('b'), ok('c', 3), failed('a')], config);
    expect(reliability.failedArtefactIds).toEqual(['a', 'b']);
  });

  it('calls a judge that evaluated nothing unreliable, with no rate', () => {
    expect(assessJudgeReliability([], config)).toMatchObject({
      total: 0,
      failureRate: null,
      unreliable: true,
    });
  });

  it('follows a configured failure rate', () => {
    expect(
      assessJudgeReliability(
        batch(3, 10),
        resolveEvaluationConfig({ judge: { unreliableFailureRate: 0.3 } }),
      ).unreliable,
    ).toBe(false);
  });

  it('flags re-runs whose sample variance exceeds the threshold, without failing the judge', () => {
    // Prepare: variances 1, 1/3, 0.5 (exactly the threshold), 0
    const results = [
      ok('wide', 4, { samples: [3, 4, 5] } as Partial<ExpensiveModeResult>),
      ok('narrow', 4, { samples: [4, 4, 5] } as Partial<ExpensiveModeResult>),
      ok('edge', 4.5, { samples: [4, 5] } as Partial<ExpensiveModeResult>),
      ok('steady', 4, { samples: [4, 4, 4] } as Partial<ExpensiveModeResult>),
      ok('single', 4),
    ];

    // Act
    const reliability = assessJudgeReliability(results, config);

    // Assess
    expect(reliability.highVariance).toEqual([
      { artefactId: 'wide', samples: [3, 4, 5], variance: 1 },
    ]);
    expect(reliability.unreliable).toBe(false);
  });
});

import { describe, expect, it } from 'vitest';
import { DEFAULT_EVALUATION_CONFIG } from '../../lambdas/core/schemas/evaluation-config.js';
import {
  combineSamples,
  judgeRunOf,
  mergeRerun,
  missingVerdict,
  rerunReason,
  type JudgeSample,
} from '../../lambdas/core/judge/verdict.js';

import { qusVerdicts } from '../support/evaluation.js';

const usage = { inputTokens: 100, outputTokens: 10, costUsd: 0.5 };
const ok = (gestalt: number, attempts = 1): JudgeSample => ({
  status: 'ok',
  answer: {
    gestalt,
    reasoning: `scored ${gestalt}`,
    strengths: [`s${gestalt}`],
    weaknesses: [`w${gestalt}`],
  },
  attempts,
  usage,
});
const failed = (error = 'model unavailable: overloaded', rawAnswer?: string): JudgeSample => ({
  status: 'failed',
  error,
  attempts: 3,
  usage,
  ...(rawAnswer === undefined ? {} : { rawAnswer }),
});
const config = DEFAULT_EVALUATION_CONFIG;

describe('Function: combineSamples', () => {
  it('takes the median score and the reasoning of the sample closest to it', () => {
    // Act
    const judged = combineSamples('a', [ok(5), ok(3), ok(4)], 3, 0.5);

    // Assess
    expect(judged.result).toMatchObject({
      status: 'ok',
      artefactId: 'a',
      gestalt: 4,
      samples: [5, 3, 4],
      reasoning: 'scored 4',
      weaknesses: ['w4'],
      attempts: 3,
      usage: { inputTokens: 300, outputTokens: 30, costUsd: 1.5 },
    });
    expect(judged.spread).toBe(2);
    expect(judged.highVariance).toBe(true);
  });

  it('keeps the QUS verdicts of the sample closest to the median, and none when it gave none', () => {
    // Prepare
    const withVerdicts = (gestalt: number, atomic?: string): JudgeSample => {
      const sample = ok(gestalt);
      if (sample.status !== 'ok') throw new Error('unreachable');
      return {
        ...sample,
        answer: { ...sample.answer, criteria: qusVerdicts(atomic ? { atomic } : {}) },
      };
    };

    // Act
    const judged = combineSamples(
      'a',
      [withVerdicts(2, 'and'), withVerdicts(4), withVerdicts(5)],
      3,
      0.5,
    );

    // Assess
    expect(judged.result).toMatchObject({ gestalt: 4, criteria: qusVerdicts() });
    expect(combineSamples('a', [ok(4)], 1, 0.5).result).not.toHaveProperty('criteria');
  });

  it('ignores failed samples for the score but counts their attempts and usage', () => {
    // Act
    const judged = combineSamples('a', [ok(3), failed(), ok(4)], 3, 0.5);

    // Assess
    expect(judged.result).toMatchObject({
      status: 'ok',
      gestalt: 3.5,
      samples: [3, 4],
      attempts: 5,
    });
    expect(judged.result.status === 'ok' && judged.result.reasoning).toBe('scored 3');
    expect(judged.highVariance).toBe(true);
  });

  it('keeps one sample as it is, without a sample list or a spread', () => {
    const judged = combineSamples('a', [ok(4.2)], 1, 0.5);
    expect(judged.result).not.toHaveProperty('samples');
    expect(judged).not.toHaveProperty('spread');
    expect(judged.highVariance).toBe(false);
  });

  it('returns the last failure and the last raw answer when no sample succeeded', () => {
    // Act
    const judged = combineSamples('a', [failed('first', 'raw 1'), failed('TIMEOUT')], 3, 0.5);

    // Assess
    expect(judged.result).toMatchObject({
      status: 'failed',
      error: 'all 2 samples failed; last: TIMEOUT',
      attempts: 6,
    });
    expect(judged.rawAnswer).toBe('raw 1');
    expect(combineSamples('a', [], 1, 0.5).result).toMatchObject({
      status: 'failed',
      error: 'no sample was taken',
      attempts: 1,
    });
  });
});

describe('Function: judgeRunOf', () => {
  it("reads the Map's verdicts as one pass: failures, reliability, average", () => {
    // Act
    const run = judgeRunOf(
      [combineSamples('a', [ok(4)], 1, 0.5), missingVerdict('b')],
      config,
      'claude-sonnet-4-6',
    );

    // Assess
    expect(run).toMatchObject({
      model: 'claude-sonnet-4-6',
      runs: 1,
      judged: 1,
      failed: 1,
      failureRate: 0.5,
      unreliable: true,
      averageGestalt: 4,
      calls: 2,
    });
  });
});

describe('Function: missingVerdict', () => {
  it('is a failed evaluation, never a score', () => {
    expect(missingVerdict('b')).toEqual({
      result: {
        status: 'failed',
        artefactId: 'b',
        error: 'the judge step stored no verdict (it failed past its retries)',
        attempts: 1,
        usage: { inputTokens: 0, outputTokens: 0, costUsd: 0 },
      },
      samples: [
        {
          status: 'failed',
          error: 'the judge step stored no verdict (it failed past its retries)',
          attempts: 1,
          usage: { inputTokens: 0, outputTokens: 0, costUsd: 0 },
        },
      ],
      highVariance: false,
    });
  });
});

describe('Function: mergeRerun', () => {
  it("takes the re-run's verdicts and keeps the others, in the earlier order", () => {
    // Prepare
    const previous = ['a', 'b', 'c'].map((id) => combineSamples(id, [ok(3)], 1, 0.5));
    const rerun = [combineSamples('b', [ok(3), ok(4), ok(4)], 3, 0.5)];

    // Act
    const merged = mergeRerun(previous, rerun);

    // Assess
    expect(merged.map((judged) => judged.result.artefactId)).toEqual(['a', 'b', 'c']);
    expect(merged[1]).toBe(rerun[0]);
    expect(merged[0]).toBe(previous[0]);
  });
});

describe('Function: rerunReason', () => {
  it('re-runs an unreliable pass, or one the caller asks for', () => {
    expect(rerunReason({ unreliable: true }, false)).toBe('unreliable');
    expect(rerunReason({ unreliable: true }, true)).toBe('unreliable');
    expect(rerunReason({ unreliable: false }, true)).toBe('requested');
    expect(rerunReason({ unreliable: false }, false)).toBeUndefined();
  });
});

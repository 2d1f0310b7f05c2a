import { describe, expect, it } from 'vitest';
import { pruneCandidates } from '../../lambdas/core/learning/prune.js';
import { DEFAULT_LEARNING_CONFIG } from '../../lambdas/core/schemas/learning-config.js';
import { makeRegistryPattern } from '../support/learning-records.js';

const NOW = '2026-06-01T00:00:00Z';
const PRUNE = DEFAULT_LEARNING_CONFIG.prune; // below 50% after 3 uses; idle over 90 days
const recent = { lastUsedAt: '2026-05-20T00:00:00Z' };

const reasonsOf = (...patterns: Parameters<typeof makeRegistryPattern>[0][]) =>
  pruneCandidates(patterns.map(makeRegistryPattern), PRUNE, NOW).map((candidate) => [
    candidate.pattern.patternId,
    candidate.reason,
  ]);

describe('Function: pruneCandidates', () => {
  it('names a pattern below the success rate once it has enough uses, with the figures', () => {
    expect(
      reasonsOf(
        { patternId: 'failing', uses: 3, successes: 1, successRate: 1 / 3, ...recent },
        { patternId: 'too-few-uses', uses: 2, successes: 0, successRate: 0, ...recent },
        { patternId: 'at-the-limit', uses: 4, successes: 2, successRate: 0.5, ...recent },
      ),
    ).toEqual([['failing', 'success rate 33% (1 of 3 uses) is below 50% after at least 3 uses']]);
  });

  it('names a pattern idle for longer than maxIdleDays, since its last use or else its creation', () => {
    expect(
      reasonsOf(
        { patternId: 'idle', lastUsedAt: '2026-02-01T00:00:00Z' },
        {
          patternId: 'never-used',
          lastUsedAt: undefined,
          createdAt: '2026-01-01T00:00:00Z',
          updatedAt: '2026-01-01T00:00:00Z',
        },
        { patternId: 'ninety-days', lastUsedAt: '2026-03-03T00:00:00Z' },
      ),
    ).toEqual([
      ['idle', 'idle for 120 days (last used 2026-02-01T00:00:00Z), more than 90'],
      ['never-used', 'idle for 151 days (never used, created 2026-01-01T00:00:00Z), more than 90'],
    ]);
  });

  it('gives both reasons when both hold, and follows the configured figures', () => {
    // Prepare
    const pattern = makeRegistryPattern({
      uses: 10,
      successes: 5,
      successRate: 0.5,
      lastUsedAt: '2026-05-01T00:00:00Z',
    });
    const strict = { minSuccessRate: 0.6, minUses: 10, maxIdleDays: 30 };

    // Act
    const candidates = pruneCandidates([pattern], strict, NOW);

    // Assess
    expect(candidates.map((candidate) => candidate.reason)).toEqual([
      'success rate 50% (5 of 10 uses) is below 60% after at least 10 uses; idle for 31 days (last used 2026-05-01T00:00:00Z), more than 30',
    ]);
    expect(pruneCandidates([pattern], PRUNE, NOW)).toEqual([]);
  });
});

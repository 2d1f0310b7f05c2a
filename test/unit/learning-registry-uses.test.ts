import { describe, expect, it } from 'vitest';
import {
  applyUses,
  countUses,
  patternUseKey,
  type PatternUses,
} from '../../lambdas/core/learning/registry/uses.js';
import { mergeCandidates } from '../../lambdas/core/learning/registry/merge.js';
import type { Injected, RegistryPattern } from '../../lambdas/core/schemas/learning.js';
import type { IterationOutcome } from '../../lambdas/core/schemas/outcome.js';
import { InvalidInputError } from '../../lambdas/core/errors.js';
import { recorded } from '../support/run-history.js';

const PROJECT = 'project:shop';
const NULL_GUARD: Injected = { kind: 'pattern', id: 'err-5f1c0e9a2b7d', scope: PROJECT };
const BUGFIX: Injected = { kind: 'pattern', id: 'success-bugfix', scope: 'org' };

function given(
  iteration: number,
  outcome: IterationOutcome,
  injected: Injected[],
  control = false,
) {
  return recorded(iteration, {
    outcome,
    overrides: { learning: { category: 'bugfix', control, injected, skippedRules: [] } },
  });
}

/** A new pattern as merging creates it (unused, success rate 1). */
function newPattern(): RegistryPattern {
  const [pattern] = mergeCandidates(
    [],
    [
      {
        patternId: NULL_GUARD.id,
        type: 'error',
        title: 'typecheck: <file>: error TS18047: <name> is possibly <name>.',
        body: 'Return early when the value is null.',
        tags: ['typecheck'],
        sources: [
          { runId: 'run-0', projectId: 'shop', iterations: [1, 2], at: '2025-02-01T10:00:00.000Z' },
        ],
      },
    ],
    PROJECT,
    '2025-02-01T10:00:00.000Z',
  ).create;
  return pattern!;
}
const uses = (count: number, successes: number, lastUsedAt: string): PatternUses => ({
  scope: PROJECT,
  patternId: NULL_GUARD.id,
  uses: count,
  successes,
  lastUsedAt,
});

describe('Function: countUses', () => {
  it('counts the iterations given each pattern, and the ones that passed', () => {
    // Prepare
    const iterations = [
      given(1, 'gates_failed', [NULL_GUARD, BUGFIX, { kind: 'hint', id: 'h1' }]),
      given(2, 'passed', [NULL_GUARD, NULL_GUARD]),
      given(3, 'passed', [BUGFIX, { kind: 'rule', id: 'r-1' }]),
    ];

    // Act
    const counted = countUses(iterations);

    // Assess
    expect(Object.fromEntries(counted)).toEqual({
      [patternUseKey(PROJECT, NULL_GUARD.id)]: {
        scope: PROJECT,
        patternId: NULL_GUARD.id,
        uses: 2,
        successes: 1,
        lastUsedAt: '2025-03-01T10:02:00.000Z',
      },
      [patternUseKey('org', 'success-bugfix')]: {
        scope: 'org',
        patternId: 'success-bugfix',
        uses: 2,
        successes: 1,
        lastUsedAt: '2025-03-01T10:03:00.000Z',
      },
    });
  });

  it('counts nothing for a control iteration, a cancel or a runner fault', () => {
    // Prepare
    const iterations = [
      given(1, 'passed', [], true),
      given(2, 'cancelled', [NULL_GUARD]),
      given(3, 'runner_error', [NULL_GUARD]),
      recorded(5),
    ];

    // Act / Assess
    expect(countUses(iterations).size).toBe(0);
  });

  it('cannot be given a pattern without its scope: the record is refused with the path', () => {
    expect(() => given(4, 'passed', [{ kind: 'pattern', id: NULL_GUARD.id }])).toThrow(
      /learning.*injected.*scope|a pattern needs its scope/s,
    );
  });
});

describe('Function: applyUses', () => {
  it('moves the success rate with uses and records each step of the trend', () => {
    // Prepare: the design's example, 1/1 then 4/5 then 11/12.
    const steps: [PatternUses, string][] = [
      [uses(1, 1, '2025-02-01T10:00:00.000Z'), '2025-02-01T11:00:00.000Z'],
      [uses(4, 3, '2025-02-01T14:00:00.000Z'), '2025-02-01T15:00:00.000Z'],
      [uses(7, 7, '2025-02-02T15:00:00.000Z'), '2025-02-02T16:00:00.000Z'],
    ];

    // Act
    const evolved = steps.reduce(
      (pattern, [counted, now]) => applyUses(pattern, counted, now),
      newPattern(),
    );

    // Assess
    expect(evolved).toMatchObject({
      uses: 12,
      successes: 11,
      successRate: 11 / 12,
      lastUsedAt: '2025-02-02T15:00:00.000Z',
      updatedAt: '2025-02-02T16:00:00.000Z',
      trend: [
        { at: '2025-02-01T11:00:00.000Z', successRate: 1, uses: 1 },
        { at: '2025-02-01T15:00:00.000Z', successRate: 0.8, uses: 5 },
        { at: '2025-02-02T16:00:00.000Z', successRate: 11 / 12, uses: 12 },
      ],
    });
  });

  it('drops from the extraction’s 1 to 0 when its first use fails', () => {
    const failed = applyUses(
      newPattern(),
      uses(1, 0, '2025-02-03T10:00:00.000Z'),
      '2025-02-03T11:00:00.000Z',
    );
    expect(failed).toMatchObject({ uses: 1, successes: 0, successRate: 0 });
  });

  it('leaves a pattern the run did not use as it was, without a trend point', () => {
    const pattern = newPattern();
    expect(applyUses(pattern, undefined, '2025-02-03T11:00:00.000Z')).toBe(pattern);
  });

  it('keeps the later lastUsedAt when an older run is applied late', () => {
    const recent = applyUses(
      newPattern(),
      uses(1, 1, '2025-02-05T10:00:00.000Z'),
      '2025-02-05T11:00:00.000Z',
    );
    const late = applyUses(
      recent,
      uses(1, 1, '2025-02-01T10:00:00.000Z'),
      '2025-02-06T11:00:00.000Z',
    );
    expect(late.lastUsedAt).toBe('2025-02-05T10:00:00.000Z');
  });

  it('refuses uses counted for another pattern', () => {
    const other = { ...uses(1, 1, '2025-02-01T10:00:00.000Z'), scope: 'org' };
    expect(() => applyUses(newPattern(), other, '2025-02-01T11:00:00.000Z')).toThrow(
      InvalidInputError,
    );
  });
});

import { describe, expect, it } from 'vitest';
import { extractPatterns } from '../../lambdas/core/learning/registry/extract.js';
import { mergeCandidates } from '../../lambdas/core/learning/registry/merge.js';
import type { PatternCandidate } from '../../lambdas/core/learning/registry/candidate.js';
import type { RegistryPattern } from '../../lambdas/core/schemas/learning.js';
import {
  TSC_POSSIBLY_NULL_PROFILE,
  TSC_POSSIBLY_NULL_RECEIPT,
  history,
  recorded,
  task,
} from '../support/run-history.js';

const SCOPE = 'project:shop';
const FIRST_MERGE = '2025-03-01T12:00:00.000Z';
const SECOND_MERGE = '2025-03-08T12:00:00.000Z';

/** A run that failed the typecheck on a possibly-null value and then guarded it. */
function nullGuardRun(runId: string, output: string, file: string, endedAt: string) {
  return history(
    [
      recorded(1, { failedGate: { name: 'typecheck', outputTail: output } }),
      recorded(2, {
        summary: `Returned early when the value is null in ${file}`,
        filesChanged: [file],
      }),
    ],
    [task('US-001', 'Show the account page')],
    { runId, endedAt },
  );
}
const errorsOf = (candidates: PatternCandidate[]) =>
  candidates.filter((candidate) => candidate.type === 'error');
/** What the store gives back after saving a created pattern. */
const stored = (pattern: RegistryPattern, overrides: Partial<RegistryPattern> = {}) => ({
  ...pattern,
  version: 1,
  ...overrides,
});

const runOne = errorsOf(
  extractPatterns(
    nullGuardRun(
      'run-1',
      TSC_POSSIBLY_NULL_PROFILE,
      'src/account/profile.ts',
      '2025-03-01T11:00:00.000Z',
    ),
  ),
);
const runTwo = errorsOf(
  extractPatterns(
    nullGuardRun(
      'run-2',
      TSC_POSSIBLY_NULL_RECEIPT,
      'src/orders/receipt.ts',
      '2025-03-08T11:00:00.000Z',
    ),
  ),
);

describe('Function: mergeCandidates', () => {
  it('creates a new pattern unused, with a success rate of 1 and no trend', () => {
    // Act
    const { create, update } = mergeCandidates([], runOne, SCOPE, FIRST_MERGE);

    // Assess
    expect(update).toEqual([]);
    expect(create).toEqual([
      {
        ...runOne[0],
        scope: SCOPE,
        version: 1,
        uses: 0,
        successes: 0,
        successRate: 1,
        trend: [],
        createdAt: FIRST_MERGE,
        updatedAt: FIRST_MERGE,
      },
    ]);
  });

  it('merges the same error from two runs, in different files, into one pattern with two sources', () => {
    // Prepare
    const [first] = mergeCandidates([], runOne, SCOPE, FIRST_MERGE).create;

    // Act
    const { create, update } = mergeCandidates([stored(first!)], runTwo, SCOPE, SECOND_MERGE);

    // Assess
    expect(runTwo[0]?.patternId).toBe(first?.patternId);
    expect(create).toEqual([]);
    expect(update).toHaveLength(1);
    expect(update[0]?.expectedVersion).toBe(1);
    expect(update[0]?.pattern).toMatchObject({
      patternId: first?.patternId,
      body: 'Returned early when the value is null in src/orders/receipt.ts. Changed: src/orders/receipt.ts',
      createdAt: FIRST_MERGE,
      updatedAt: SECOND_MERGE,
      sources: [
        { runId: 'run-1', iterations: [1, 2] },
        { runId: 'run-2', iterations: [1, 2] },
      ],
    });
  });

  it('changes nothing when the run is already a source (a retried run end)', () => {
    const [first] = mergeCandidates([], runOne, SCOPE, FIRST_MERGE).create;
    expect(mergeCandidates([stored(first!)], runOne, SCOPE, SECOND_MERGE)).toEqual({
      create: [],
      update: [],
    });
  });

  it.each([
    [
      'keeps the body that was used and held up',
      { uses: 4, successes: 4, successRate: 1 },
      'run-1',
    ],
    [
      'takes the newer body over one that failed',
      { uses: 4, successes: 1, successRate: 0.25 },
      'run-2',
    ],
    ['takes the newer body over an unused one', { uses: 0, successes: 0, successRate: 1 }, 'run-2'],
  ])('%s', (_, counts, bodyFrom) => {
    // Prepare
    const [first] = mergeCandidates([], runOne, SCOPE, FIRST_MERGE).create;
    const expected = (bodyFrom === 'run-1' ? runOne : runTwo)[0]?.body;

    // Act
    const { update } = mergeCandidates([stored(first!, counts)], runTwo, SCOPE, SECOND_MERGE);

    // Assess
    expect(update[0]?.pattern.body).toBe(expected);
    expect(update[0]?.pattern).toMatchObject(counts);
  });

  it('keeps the newer body when an older run is merged late', () => {
    const [second] = mergeCandidates([], runTwo, SCOPE, SECOND_MERGE).create;
    const { update } = mergeCandidates([stored(second!)], runOne, SCOPE, SECOND_MERGE);
    expect(update[0]?.pattern.body).toBe(runTwo[0]?.body);
    expect(update[0]?.pattern.sources.map((source) => source.runId)).toEqual(['run-2', 'run-1']);
  });

  it('merges a pattern with another id on the same type and issue key (an imported one)', () => {
    // Prepare
    const [first] = mergeCandidates([], runOne, SCOPE, FIRST_MERGE).create;
    const imported = stored(first!, { patternId: 'err-imported-1', tags: ['null-safety'] });

    // Act
    const { create, update } = mergeCandidates([imported], runTwo, SCOPE, SECOND_MERGE);

    // Assess
    expect(create).toEqual([]);
    expect(update[0]?.pattern.patternId).toBe('err-imported-1');
    expect(update[0]?.pattern.tags).toEqual(['null-safety', 'typecheck', 'typescript']);
  });

  it('leaves patterns of another scope alone', () => {
    const [first] = mergeCandidates([], runOne, 'org', FIRST_MERGE).create;
    const { create, update } = mergeCandidates([stored(first!)], runTwo, SCOPE, SECOND_MERGE);
    expect(update).toEqual([]);
    expect(create.map((pattern) => pattern.scope)).toEqual([SCOPE]);
  });

  it('re-averages a success pattern’s iterations, weighted by the tasks each run counted', () => {
    // Prepare: run 1 passed two bugfix tasks in 1 and 3 iterations; run 2 one task in 5.
    const runA = history(
      [
        recorded(1, {
          taskId: 'US-001',
          summary: 'Added a regression test first',
          filesChanged: ['a.ts'],
        }),
        recorded(2, {
          taskId: 'US-002',
          failedGate: { name: 'typecheck', outputTail: TSC_POSSIBLY_NULL_PROFILE },
        }),
        recorded(3, {
          taskId: 'US-002',
          failedGate: { name: 'typecheck', outputTail: TSC_POSSIBLY_NULL_PROFILE },
        }),
        recorded(4, { taskId: 'US-002', summary: 'Added a regression test first' }),
      ],
      [task('US-001', 'Fix the cart crash'), task('US-002', 'Fix the null user')],
      { runId: 'run-a', endedAt: '2025-03-01T11:00:00.000Z' },
    );
    const runB = history(
      [
        ...[1, 2, 3, 4].map((iteration) =>
          recorded(iteration, {
            failedGate: { name: 'typecheck', outputTail: TSC_POSSIBLY_NULL_RECEIPT },
          }),
        ),
        recorded(5, { summary: 'Reproduced it in a test, then fixed it', filesChanged: ['b.py'] }),
      ],
      [task('US-001', 'Fix the receipt total')],
      { runId: 'run-b', endedAt: '2025-03-08T11:00:00.000Z' },
    );
    const success = (run: ReturnType<typeof history>) =>
      extractPatterns(run).filter((candidate) => candidate.type === 'success');
    const [first] = mergeCandidates([], success(runA), SCOPE, FIRST_MERGE).create;

    // Act
    const { update } = mergeCandidates([stored(first!)], success(runB), SCOPE, SECOND_MERGE);

    // Assess
    expect(first?.averageIterations).toBe(2);
    expect(update[0]?.pattern).toMatchObject({
      patternId: 'success-bugfix',
      averageIterations: 3,
      tags: ['python', 'typescript'],
      sources: [
        { runId: 'run-a', iterations: [1, 4] },
        { runId: 'run-b', iterations: [5] },
      ],
    });
  });

  it('folds duplicates within one call into one created pattern', () => {
    const { create } = mergeCandidates([], [...runOne, ...runTwo], SCOPE, SECOND_MERGE);
    expect(create).toHaveLength(1);
    expect(create[0]?.sources.map((source) => source.runId)).toEqual(['run-1', 'run-2']);
  });

  it('refuses a time that is not an ISO date, naming the field', () => {
    expect(() => mergeCandidates([], runOne, SCOPE, 'now')).toThrow(/createdAt/);
  });
});

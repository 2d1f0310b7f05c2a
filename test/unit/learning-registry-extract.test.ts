import { describe, expect, it } from 'vitest';
import { extractPatterns } from '../../lambdas/core/learning/registry/extract.js';
import { errorPatternId } from '../../lambdas/core/learning/registry/pattern-ids.js';
import { InvalidInputError } from '../../lambdas/core/errors.js';
import { PatternCandidateSchema } from '../../lambdas/core/learning/registry/candidate.js';
import {
  TSC_POSSIBLY_NULL_PROFILE,
  history,
  recorded,
  resetControl,
  task,
} from '../support/run-history.js';
import { PYTEST_FAILED, TSC_PLAIN, VITEST_FAILED } from '../support/tool-outputs.js';

const typecheck = (outputTail: string) => ({ name: 'typecheck', outputTail });
const tests = (outputTail: string) => ({ name: 'test', outputTail });
const NULL_USER_KEY = {
  class: 'typecheck',
  signature: '<file>: error TS18047: <name> is possibly <name>.',
};

describe('Function: extractPatterns', () => {
  describe('error→fix', () => {
    it('pairs a failure with the later pass of the same task, in the pass’s words', () => {
      // Prepare
      const run = history(
        [
          recorded(1, { failedGate: typecheck(TSC_POSSIBLY_NULL_PROFILE) }),
          recorded(2, {
            learnings: ['findUser returns null for unknown ids: guard it before reading email'],
            summary: 'Show the account email',
            filesChanged: ['src/account/profile.ts', 'test/unit/profile.test.ts'],
          }),
        ],
        [task('US-001', 'Show the account email')],
      );

      // Act
      const errors = extractPatterns(run).filter((candidate) => candidate.type === 'error');

      // Assess
      expect(errors).toEqual([
        {
          patternId: errorPatternId(NULL_USER_KEY),
          type: 'error',
          title: 'typecheck: <file>: error TS18047: <name> is possibly <name>.',
          body:
            'findUser returns null for unknown ids: guard it before reading email. ' +
            'Changed: src/account/profile.ts, test/unit/profile.test.ts',
          category: 'feature',
          issue: NULL_USER_KEY,
          tags: ['typecheck', 'typescript'],
          sources: [
            {
              runId: 'run-1',
              projectId: 'shop',
              iterations: [1, 2],
              at: '2025-03-01T11:00:00.000Z',
            },
          ],
        },
      ]);
      expect(() => PatternCandidateSchema.parse(errors[0])).not.toThrow();
    });

    it('uses the summary when the pass gave no learnings, and names at most 3 files', () => {
      // Prepare
      const run = history(
        [
          recorded(1, { failedGate: tests(PYTEST_FAILED) }),
          recorded(2, {
            summary: 'Cart.remove now returns True when it removed the item',
            filesChanged: ['shop/cart.py', 'shop/items.py', 'tests/test_cart.py', 'README.md'],
          }),
        ],
        [task('US-001', 'Fix removing items from the cart')],
      );

      // Act
      const [error] = extractPatterns(run);

      // Assess
      expect(error).toMatchObject({
        type: 'error',
        title: 'tests: E AssertionError: assert False is True',
        body:
          'Cart.remove now returns True when it removed the item. ' +
          'Changed: shop/cart.py, shop/items.py, tests/test_cart.py (+1 more)',
        category: 'bugfix',
        tags: ['python', 'tests'],
      });
    });

    it('gives one pattern per issue key the pass resolved, each with its own failures', () => {
      // Prepare
      const run = history(
        [
          recorded(1, { failedGate: typecheck(TSC_PLAIN) }),
          recorded(2, { failedGate: tests(VITEST_FAILED) }),
          recorded(3, { failedGate: typecheck(TSC_PLAIN) }),
          recorded(4, { summary: 'Cart keeps numbers as numbers', filesChanged: ['src/cart.ts'] }),
        ],
        [task('US-001', 'Cart totals')],
      );

      // Act
      const errors = extractPatterns(run).filter((candidate) => candidate.type === 'error');

      // Assess
      expect(errors.map((error) => [error.issue?.class, error.sources[0]?.iterations])).toEqual([
        ['typecheck', [1, 3, 4]],
        ['tests', [2, 4]],
      ]);
    });

    it('learns nothing from a failure another task’s pass followed, nor from a cancel', () => {
      // Prepare
      const run = history(
        [
          recorded(1, { taskId: 'US-001', failedGate: typecheck(TSC_PLAIN) }),
          recorded(2, { taskId: 'US-002', summary: 'Added the page', filesChanged: ['a.ts'] }),
          recorded(3, { taskId: 'US-003', outcome: 'cancelled' }),
          recorded(4, { taskId: 'US-003', summary: 'Wrote it', filesChanged: ['b.ts'] }),
        ],
        [task('US-001', 'One', 'blocked'), task('US-002', 'Two'), task('US-003', 'Three')],
      );

      // Act
      const candidates = extractPatterns(run);

      // Assess
      expect(candidates.filter((candidate) => candidate.type === 'error')).toEqual([]);
    });

    it('merges the same error fixed by two tasks of a run into one pattern', () => {
      // Prepare
      const run = history(
        [
          recorded(1, { taskId: 'US-001', failedGate: typecheck(TSC_POSSIBLY_NULL_PROFILE) }),
          recorded(2, { taskId: 'US-001', summary: 'Guarded the user', filesChanged: ['a.ts'] }),
          recorded(3, { taskId: 'US-002', failedGate: typecheck(TSC_POSSIBLY_NULL_PROFILE) }),
          recorded(4, { taskId: 'US-002', summary: 'Guarded the order', filesChanged: ['b.go'] }),
        ],
        [task('US-001', 'Account page'), task('US-002', 'Orders page')],
      );

      // Act
      const errors = extractPatterns(run).filter((candidate) => candidate.type === 'error');

      // Assess
      expect(errors).toHaveLength(1);
      expect(errors[0]).toMatchObject({
        body: 'Guarded the user. Changed: a.ts',
        tags: ['go', 'typecheck', 'typescript'],
        sources: [{ runId: 'run-1', iterations: [1, 2, 3, 4] }],
      });
    });
  });

  describe('success', () => {
    it('gives each category its commonest approach and mean iterations per passed task', () => {
      // Prepare
      const guard = 'Added a guard for the empty input and a regression test';
      const run = history(
        [
          recorded(1, { taskId: 'US-001', failedGate: tests(VITEST_FAILED) }),
          recorded(2, { taskId: 'US-001', summary: guard, filesChanged: ['src/cart.ts'] }),
          recorded(3, { taskId: 'US-002', summary: guard.toLowerCase(), filesChanged: ['x.py'] }),
          recorded(4, { taskId: 'US-003', summary: 'Rounded once, at the end' }),
          recorded(5, { taskId: 'US-004', failedGate: typecheck(TSC_PLAIN) }),
          recorded(6, { taskId: 'US-005', summary: 'Added the receipt page' }),
        ],
        [
          task('US-001', 'Fix crash on empty cart'),
          task('US-002', 'Fix crash on empty search'),
          task('US-003', 'Fix rounding error in totals'),
          task('US-004', 'Fix the broken import', 'blocked'),
          task('US-005', 'Receipt page'),
        ],
      );

      // Act
      const successes = extractPatterns(run).filter((candidate) => candidate.type === 'success');

      // Assess
      expect(successes).toEqual([
        {
          patternId: 'success-bugfix',
          type: 'success',
          title: 'Approach for bugfix tasks',
          body: guard,
          category: 'bugfix',
          tags: ['python', 'typescript'],
          averageIterations: 4 / 3,
          sources: [
            {
              runId: 'run-1',
              projectId: 'shop',
              iterations: [2, 3, 4],
              at: '2025-03-01T11:00:00.000Z',
            },
          ],
        },
        expect.objectContaining({
          patternId: 'success-feature',
          body: 'Added the receipt page',
          averageIterations: 1,
        }),
      ]);
    });

    it('breaks a tie by the shorter approach, whatever the order of the tasks', () => {
      // Prepare
      const iterations = [
        recorded(1, { taskId: 'US-001', summary: 'Wrote the docs page with examples' }),
        recorded(2, { taskId: 'US-002', summary: 'Updated the README' }),
      ];
      const tasks = [task('US-001', 'Write docs'), task('US-002', 'Update readme')];

      // Act
      const forwards = extractPatterns(history(iterations, tasks));
      const backwards = extractPatterns(history(iterations, [...tasks].reverse()));

      // Assess
      expect(forwards[0]?.body).toBe('Updated the README');
      expect(backwards[0]?.body).toBe('Updated the README');
    });
  });

  describe('anti-pattern', () => {
    const failing = (iteration: number) =>
      recorded(iteration, {
        failedGate: tests(VITEST_FAILED),
        summary: 'Changed the assertion in cart.test.ts',
      });

    it('flags an issue key one task failed with 3 times, with the eventual fix', () => {
      // Prepare
      const run = history(
        [
          failing(1),
          failing(2),
          failing(3),
          recorded(4, {
            learnings: ['Cart.remove must filter the items array, not the ids'],
            filesChanged: ['src/cart.ts'],
          }),
        ],
        [task('US-001', 'Remove items from the cart')],
      );

      // Act
      const anti = extractPatterns(run).filter((candidate) => candidate.type === 'anti');

      // Assess
      expect(anti).toEqual([
        expect.objectContaining({
          patternId: expect.stringMatching(/^anti-[0-9a-f]{12}$/),
          title: 'Repeated failure: tests: AssertionError: expected [ <name> ] to deeply equal []',
          body:
            'Retrying failed 3 times with the same error. ' +
            'Tried: Changed the assertion in cart.test.ts. ' +
            'Instead: Cart.remove must filter the items array, not the ids. Changed: src/cart.ts',
          issue: {
            class: 'tests',
            signature: 'AssertionError: expected [ <name> ] to deeply equal []',
          },
          sources: [expect.objectContaining({ iterations: [1, 2, 3, 4] })],
        }),
      ]);
    });

    it('is not given by 2 failures', () => {
      // Prepare
      const run = history(
        [failing(1), failing(2), recorded(3, { summary: 'Fixed', filesChanged: ['src/cart.ts'] })],
        [task('US-001', 'Remove items from the cart')],
      );

      // Act
      const types = extractPatterns(run).map((candidate) => candidate.type);

      // Assess
      expect(types).toEqual(['error', 'success']);
    });

    it('takes the threshold from the options', () => {
      const run = history([failing(1), failing(2)], [task('US-001', 'Cart', 'blocked')]);
      expect(extractPatterns(run, { antiPatternFailures: 2 }).map((c) => c.body)).toEqual([
        'Retrying failed 2 times with the same error. Tried: Changed the assertion in ' +
          'cart.test.ts. No fix was found: change the approach rather than retrying it.',
      ]);
    });

    it('flags the failure loop control reset, keyed on that iteration’s error', () => {
      // Prepare
      const run = history(
        [
          recorded(1, { failedGate: typecheck(TSC_POSSIBLY_NULL_PROFILE) }),
          recorded(2, {
            failedGate: typecheck(TSC_POSSIBLY_NULL_PROFILE),
            summary: 'Cast the user with as User',
            overrides: { control: resetControl(2) },
          }),
          recorded(3, { summary: 'Returned early when findUser gives null' }),
        ],
        [task('US-001', 'Account page')],
      );

      // Act
      const anti = extractPatterns(run).filter((candidate) => candidate.type === 'anti');

      // Assess
      expect(anti).toEqual([
        expect.objectContaining({
          title: 'Reset after: typecheck: <file>: error TS18047: <name> is possibly <name>.',
          body:
            'Loop control reset the work (the same error repeated 2 times (limit 2): ' +
            '"<file>:<line> error TS18047"). Tried: Cast the user with as User. ' +
            'Instead: Returned early when findUser gives null.',
          issue: NULL_USER_KEY,
          sources: [expect.objectContaining({ iterations: [2, 3] })],
        }),
      ]);
    });
  });

  it('refuses a malformed history or options, naming the path', () => {
    const run = history([recorded(1)], [task('US-001', 'One')]);
    expect(() => extractPatterns({ ...run, endedAt: 'yesterday' })).toThrow(InvalidInputError);
    expect(() => extractPatterns({ ...run, endedAt: 'yesterday' })).toThrow(/endedAt/);
    expect(() => extractPatterns(run, { antiPatternFailures: 1 })).toThrow(/antiPatternFailures/);
  });
});

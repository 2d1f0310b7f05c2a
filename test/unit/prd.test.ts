import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import {
  branchFeatureName,
  serializePrd,
  storiesInPriorityOrder,
  withStoryPassed,
} from '../../lambdas/core/ralph/prd.js';
import { PrdSchema } from '../../lambdas/core/schemas/prd.js';
import { InvalidInputError } from '../../lambdas/core/errors.js';
import { parseJsonText, parseOrThrow } from '../../lambdas/core/shared/validation.js';

/**
 * Ralph's own example (snarktank/ralph, MIT), unchanged, copied from shared/fixtures so that
 * a clone anywhere runs its tests.
 */
const RALPH_EXAMPLE = readFileSync(
  new URL('../fixtures/ralph/prd.json.example', import.meta.url),
  'utf8',
);

describe('Schema: PrdSchema', () => {
  it("reads Ralph's published prd.json.example as-is", () => {
    const prd = PrdSchema.parse(JSON.parse(RALPH_EXAMPLE));
    expect(prd.branchName).toBe('ralph/task-priority');
    expect(prd.userStories.map((story) => story.id)).toEqual([
      'US-001',
      'US-002',
      'US-003',
      'US-004',
    ]);
  });

  it('keeps unknown fields, top level and per story, when written back', () => {
    // Prepare
    const raw = JSON.parse(RALPH_EXAMPLE) as Record<string, unknown> & {
      userStories: Record<string, unknown>[];
    };
    raw.owner = 'team-a';
    raw.userStories[0]!.estimate = 3;

    // Act
    const written = JSON.parse(
      serializePrd(withStoryPassed(PrdSchema.parse(raw), 'US-001')),
    ) as typeof raw;

    // Assess
    expect(written.owner).toBe('team-a');
    expect(written.userStories[0]).toMatchObject({ estimate: 3, passes: true });
    expect(written.userStories[1]).toMatchObject({ passes: false });
  });

  it('names the path and the reason of every problem', () => {
    const raw = JSON.parse(RALPH_EXAMPLE) as { userStories: Record<string, unknown>[] };
    raw.userStories[2]!.acceptanceCriteria = 'Typecheck passes';
    const error = (() => {
      try {
        parseOrThrow(PrdSchema, raw, 'prd.json');
      } catch (caught) {
        return caught as InvalidInputError;
      }
      throw new Error('expected a failure');
    })();
    expect(error).toBeInstanceOf(InvalidInputError);
    expect(error.issues).toContain(
      'userStories[2].acceptanceCriteria: expected array, received string',
    );
    expect(error.message).toMatch(/^prd\.json is invalid:/);
  });

  it('refuses duplicate story ids, naming both places', () => {
    const raw = JSON.parse(RALPH_EXAMPLE) as { userStories: Record<string, unknown>[] };
    raw.userStories[3]!.id = 'US-001';
    const result = PrdSchema.safeParse(raw);
    expect(result.error?.issues.map((issue) => issue.message)).toEqual([
      'duplicate story id "US-001" (first at userStories[0])',
    ]);
    expect(result.error?.issues[0]?.path).toEqual(['userStories', 3, 'id']);
  });

  it('reports JSON syntax errors as invalid input', () => {
    expect(() => parseJsonText('{"project": ', 'prd.json')).toThrow(InvalidInputError);
  });
});

describe('Function: storiesInPriorityOrder / withStoryPassed', () => {
  const prd = PrdSchema.parse(JSON.parse(RALPH_EXAMPLE));

  it('orders by priority, ties in file order', () => {
    const shuffled = [
      prd.userStories[2]!,
      { ...prd.userStories[0]!, priority: 3 },
      prd.userStories[1]!,
    ];
    expect(storiesInPriorityOrder(shuffled).map((story) => story.id)).toEqual([
      'US-002',
      'US-003',
      'US-001',
    ]);
  });

  it('refuses to pass a story that is not there', () => {
    expect(() => withStoryPassed(prd, 'US-999')).toThrow(/no story "US-999"/);
  });
});

describe('Function: branchFeatureName', () => {
  it('drops the ralph/ prefix only', () => {
    expect(branchFeatureName('ralph/task-priority')).toBe('task-priority');
    expect(branchFeatureName('feature/ralph/x')).toBe('feature/ralph/x');
  });
});

import { describe, expect, it } from 'vitest';
import {
  decomposeStory,
  isBoilerplateCriterion,
  realCriteria,
} from '../../lambdas/core/control/retry/decompose.js';
import { SubtaskSchema } from '../../lambdas/core/schemas/task.js';

const story = (
  acceptanceCriteria: string[],
  description = 'As a user, I want to filter tasks.',
) => ({
  id: 'US-002',
  title: 'Filter tasks by priority',
  description,
  acceptanceCriteria,
});

describe('Function: isBoilerplateCriterion', () => {
  it.each([
    'Typecheck passes',
    'typecheck passes.',
    'Tests pass',
    'All tests pass',
    'Unit tests pass',
    'Lint passes',
    'Build succeeds',
    'npm run lint passes',
    'cargo test passes',
    'Verify in browser using dev-browser skill',
    'No new TypeScript errors',
  ])('treats %j as boilerplate', (criterion) => {
    expect(isBoilerplateCriterion(criterion)).toBe(true);
  });

  it.each([
    'Add a priority column to the tasks table',
    'Tests cover the empty filter',
    'Add unit tests for the filter',
    'Filter dropdown passes the selected value to the query',
  ])('treats %j as real work', (criterion) => {
    expect(isBoilerplateCriterion(criterion)).toBe(false);
  });

  it('uses configured patterns instead of the defaults', () => {
    expect(
      isBoilerplateCriterion('Typecheck passes', { boilerplatePatterns: ['^docs updated'] }),
    ).toBe(false);
    expect(isBoilerplateCriterion('Docs updated', { boilerplatePatterns: ['^docs updated'] })).toBe(
      true,
    );
  });

  it('keeps the real criteria in order', () => {
    expect(realCriteria(['A thing works', 'Typecheck passes', 'Another thing works'])).toEqual([
      'A thing works',
      'Another thing works',
    ]);
  });
});

describe('Function: decomposeStory', () => {
  it('makes one subtask per real criterion, the boilerplate going with the last', () => {
    // Prepare
    const input = story([
      'Add priority column to tasks table',
      'Typecheck passes',
      'Show a priority filter dropdown',
      'Filter persists in the URL',
      'Verify in browser using dev-browser skill',
    ]);

    // Act
    const result = decomposeStory(input);

    // Assess
    expect(result).toEqual({
      decomposable: true,
      method: 'criteria',
      subtasks: [
        {
          id: 'US-002.1',
          title: 'Add priority column to tasks table',
          acceptanceCriteria: ['Add priority column to tasks table'],
          status: 'open',
        },
        {
          id: 'US-002.2',
          title: 'Show a priority filter dropdown',
          acceptanceCriteria: ['Show a priority filter dropdown'],
          status: 'open',
        },
        {
          id: 'US-002.3',
          title: 'Filter persists in the URL',
          acceptanceCriteria: [
            'Filter persists in the URL',
            'Typecheck passes',
            'Verify in browser using dev-browser skill',
          ],
          status: 'open',
        },
      ],
    });
    if (result.decomposable)
      for (const subtask of result.subtasks) expect(SubtaskSchema.parse(subtask)).toEqual(subtask);
  });

  it('splits by criteria at exactly two real criteria', () => {
    const result = decomposeStory(story(['First part works', 'Second part works', 'Tests pass']));
    expect(result).toMatchObject({ decomposable: true, method: 'criteria' });
    if (result.decomposable)
      expect(result.subtasks.map((s) => s.id)).toEqual(['US-002.1', 'US-002.2']);
  });

  it('splits the description by sentences when the story has one real criterion', () => {
    // Prepare
    const input = story(
      ['Priority filter works', 'Typecheck passes'],
      'Add a priority field to the task model. Show the priority as a coloured badge in the list.',
    );

    // Act
    const result = decomposeStory(input);

    // Assess
    expect(result).toMatchObject({
      decomposable: true,
      method: 'description',
      subtasks: [
        {
          id: 'US-002.1',
          title: 'Add a priority field to the task model',
          acceptanceCriteria: ['Add a priority field to the task model'],
        },
        {
          id: 'US-002.2',
          title: 'Show the priority as a coloured badge in the list',
          acceptanceCriteria: [
            'Show the priority as a coloured badge in the list',
            'Priority filter works',
            'Typecheck passes',
          ],
        },
      ],
    });
  });

  it("splits a one-sentence user story's want-clause on 'and', dropping the frame", () => {
    const result = decomposeStory(
      story(
        ['Typecheck passes'],
        'As a project manager, I want to add a priority column and show a filter dropdown, so that I can focus on urgent work.',
      ),
    );
    expect(result).toMatchObject({
      decomposable: true,
      method: 'description',
      subtasks: [
        { title: 'Add a priority column' },
        {
          title: 'Show a filter dropdown',
          acceptanceCriteria: ['Show a filter dropdown', 'Typecheck passes'],
        },
      ],
    });
  });

  it('drops parts too short to be work', () => {
    const result = decomposeStory(
      story([], 'Store the user preferences in local storage and more.'),
    );
    expect(result.decomposable).toBe(false);
    expect(
      decomposeStory(story([], 'Store the user preferences and more.'), { minPartWords: 1 })
        .decomposable,
    ).toBe(true);
  });

  it('says why a one-piece story cannot be decomposed', () => {
    expect(
      decomposeStory(story(['Priority filter works', 'Typecheck passes'], 'Add a filter.')),
    ).toEqual({
      decomposable: false,
      reason:
        'US-002 has 1 acceptance criterion beyond the gates and its description is one piece of work',
    });
    expect(decomposeStory(story([], ''))).toMatchObject({
      decomposable: false,
      reason: expect.stringContaining('0 acceptance criteria'),
    });
  });

  it('cuts long titles but keeps the full criterion', () => {
    const long = `Show ${'very '.repeat(30)}long text`;
    const result = decomposeStory(story([long, 'Another part works']), { maxTitleLength: 20 });
    if (!result.decomposable) throw new Error('expected a decomposition');
    expect(result.subtasks[0]?.title).toBe('Show very very very…');
    expect(result.subtasks[0]?.title).toHaveLength(20);
    expect(result.subtasks[0]?.acceptanceCriteria).toEqual([long]);
  });

  it('is deterministic', () => {
    const input = story(['A works', 'B works', 'C works']);
    expect(decomposeStory(input)).toEqual(decomposeStory(input));
  });
});

import { describe, expect, it } from 'vitest';
import { labelledStories, sharedStories } from '../../lambdas/core/calibration/labelled-stories.js';
import { parseLabels } from '../../lambdas/core/calibration/labels.js';

describe('Function: labelledStories', () => {
  it('makes one user-story document per row, with only the sentence as content', () => {
    const labels = parseLabels(
      'ID,User story,atomic\nA1,"As a driver, I want x.",atomic\n',
      'l.csv',
    );
    expect(labelledStories(labels)).toEqual([
      {
        kind: 'document',
        id: 'A1',
        documentType: 'user_story',
        content: { description: 'As a driver, I want x.' },
      },
    ]);
  });

  it('names rows row-N when the file has no id column', () => {
    const labels = parseLabels('story,atomic\na,ok\nb,ok\n', 'l.csv');
    expect(labelledStories(labels).map((artefact) => artefact.id)).toEqual(['row-1', 'row-2']);
  });

  it('refuses a file without a story column, and an empty story', () => {
    expect(() => labelledStories(parseLabels('id,atomic\nA1,ok\n', 'l.csv'))).toThrow(
      /has no story column to score/,
    );
    expect(() => labelledStories(parseLabels('id,story\nA1,\n', 'l.csv'))).toThrow(
      /line 2: the story cell is empty/,
    );
  });
});

describe('Function: sharedStories', () => {
  it('names each row of the second file that shares a story, by id or else by text', () => {
    const train = parseLabels('id,story\nA1,one\nA2,two\n', 'train.csv');
    const test = parseLabels('id,story\nB1,two\nA1,one\n', 'test.csv');
    expect(sharedStories(train, test)).toEqual([
      'story "two": train.csv line 3, test.csv line 2',
      'id "A1": train.csv line 2, test.csv line 3',
    ]);
  });

  it('is empty for disjoint files', () => {
    const train = parseLabels('id,story\nA1,one\n', 'train.csv');
    const test = parseLabels('story\ntwo\n', 'test.csv');
    expect(sharedStories(train, test)).toEqual([]);
  });
});

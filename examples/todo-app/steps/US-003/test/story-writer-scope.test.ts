import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { Feedback } from '../src/feedback.js';
import { MAX_CRITERIA, writeStory } from '../src/story-writer.js';

function feedback(text: string): Feedback {
  return { id: 'fb-t4', channel: 'email', received: '2025-03-01', customer: {}, text };
}

test('writeStory keeps feedback that raises two topics to the first, and splits out the second', () => {
  const story = writeStory(
    feedback('I want to look back at what I finished, and to see how many todos are done.'),
  );
  assert.equal(story.title, 'List finished todos');
  assert.doesNotMatch(story.title, /\band\b|,/);
  assert.match(
    story.description,
    /Split out into stories of their own: "Add a done count to the list"\./,
  );
  assert.ok(story.acceptance_criteria.length <= MAX_CRITERIA);
  assert.ok(story.acceptance_criteria.every((criterion) => !criterion.includes('summarise')));
  assert.equal(story.technical_area, 'src/todos.ts (filterTodos)');
});

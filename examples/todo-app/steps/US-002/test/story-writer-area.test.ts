import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { Feedback } from '../src/feedback.js';
import { TOPICS } from '../src/feedback-topics.js';
import { writeStory } from '../src/story-writer.js';

function feedback(text: string): Feedback {
  return { id: 'fb-t3', channel: 'email', received: '2025-03-01', customer: {}, text };
}

test('every topic names a file and function under src/ and at least one service', () => {
  for (const topic of TOPICS) {
    assert.match(topic.technicalArea, /^src\/[\w-]+\.ts \(\w+\)$/, topic.name);
    assert.ok(topic.services.length > 0, `${topic.name}: no service`);
  }
});

test('writeStory names the file, the function and the service the change belongs in', () => {
  const story = writeStory(feedback('I have two todos called Pay rent and ticked the wrong one.'));
  assert.equal(story.technical_area, 'src/todos.ts (completeTodo)');
  assert.deepEqual(story.services, ['todo-core']);
});

test('writeStory names no technical area for feedback it cannot place', () => {
  const story = writeStory(feedback('Please add a dark mode.'));
  assert.equal(story.technical_area, null);
  assert.deepEqual(story.services, []);
});

import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { Feedback } from '../src/feedback.js';
import { writeStory } from '../src/story-writer.js';

function feedback(text: string, role?: string): Feedback {
  return {
    id: 'fb-t1',
    channel: 'email',
    received: '2025-03-01',
    customer: role === undefined ? {} : { role },
    text,
  };
}

test('writeStory names the customer, what they want and why', () => {
  const story = writeStory(
    feedback(
      'Every day I have to scroll past the done items. Show me what is still open.',
      'parent',
    ),
  );
  assert.equal(story.id, 'story-fb-t1');
  assert.equal(story.title, 'Show only the open todos');
  assert.match(
    story.description,
    /^As a parent, I want to see only the todos that are still open, so that I do not have to scroll past /,
  );
  assert.deepEqual(story.source_conversations, ['fb-t1']);
});

test('writeStory quotes the sentence that states the problem', () => {
  const story = writeStory(
    feedback('Lovely app. I hit enter twice by accident and got a blank todo.', 'office manager'),
  );
  assert.match(story.description, /^As an office manager, I want /);
  assert.match(
    story.description,
    /From the email: "I hit enter twice by accident and got a blank todo\."/,
  );
});

test('writeStory gives feedback it cannot place a short title and a generic role', () => {
  const story = writeStory(
    feedback('The colours of the buttons in the settings screen clash with my wallpaper today.'),
  );
  assert.ok(story.title.length <= 60, story.title);
  assert.ok(story.title.startsWith('The colours of the buttons'));
  assert.match(story.description, /^As a todo app user, I want /);
});

import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { Feedback } from '../src/feedback.js';
import { TOPICS } from '../src/feedback-topics.js';
import { writeStory } from '../src/story-writer.js';

function feedback(text: string, role?: string): Feedback {
  return {
    id: 'fb-t5',
    channel: 'email',
    received: '2025-03-01',
    customer: role === undefined ? {} : { role },
    text,
  };
}

test('every topic says what goes wrong for the customer today, in its own words', () => {
  const pains = TOPICS.map((topic) => topic.pain);
  assert.equal(new Set(pains).size, pains.length);
  for (const topic of TOPICS) assert.ok(topic.pain.length >= 15, `${topic.name}: too short`);
});

test('writeStory states the pain in the paragraph after the story', () => {
  const story = writeStory(
    feedback('I count the ticks by hand to see how many are done.', 'nurse'),
  );
  assert.match(
    story.description,
    /^As a nurse, I want a one-line count of how many todos are done, so that [^.]+\.\n\nToday I have to count the ticks by hand\./,
  );
});

test('writeStory invents no pain for feedback it cannot place', () => {
  assert.doesNotMatch(
    writeStory(feedback('Please add a dark mode.')).description,
    /Today I have to/,
  );
});

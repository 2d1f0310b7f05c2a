import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { Feedback } from '../src/feedback.js';
import { TOPICS } from '../src/feedback-topics.js';
import { writeStory } from '../src/story-writer.js';

function feedback(text: string): Feedback {
  return { id: 'fb-t2', channel: 'email', received: '2025-03-01', customer: {}, text };
}

test('every topic has 3 to 5 distinct criteria that name the code they test', () => {
  for (const topic of TOPICS) {
    const criteria = topic.criteria;
    assert.ok(criteria.length >= 3 && criteria.length <= 5, `${topic.name}: ${criteria.length}`);
    assert.equal(new Set(criteria).size, criteria.length, `${topic.name} repeats a criterion`);
    assert.ok(
      criteria.every((criterion) => criterion.length >= 25),
      `${topic.name}: too short`,
    );
    assert.ok(
      criteria.some((criterion) => /`\w+/.test(criterion)),
      `${topic.name}: no code named`,
    );
  }
});

test("writeStory gives a one-topic story that topic's criteria", () => {
  const story = writeStory(feedback('My screen went blank after I cleared the list.'));
  assert.equal(story.acceptance_criteria.length, 3);
  assert.match(story.acceptance_criteria[0] ?? '', /`summarise\(\[\]\)` returns 'nothing to do'/);
});

test('writeStory invents no criteria for feedback it cannot place', () => {
  assert.deepEqual(writeStory(feedback('Please add a dark mode.')).acceptance_criteria, []);
});

import type { Feedback } from './feedback.js';
import type { StoryDocument } from './story.js';

/**
 * Turns one piece of customer feedback into a user story. For now it only copies the
 * feedback across: no user, no value, no criteria, no technical area.
 */
export function writeStory(feedback: Feedback): StoryDocument {
  return {
    id: `story-${feedback.id}`,
    title: feedback.text,
    description: feedback.text,
    acceptance_criteria: [],
    technical_area: null,
    services: [],
    source_conversations: [feedback.id],
  };
}

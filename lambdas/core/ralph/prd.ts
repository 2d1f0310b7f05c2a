import { NotFoundError } from '../errors.js';
import type { Prd, UserStory } from '../schemas/prd.js';

/** Ralph's order: lowest `priority` first; ties keep the file's order. */
export function storiesInPriorityOrder(stories: readonly UserStory[]): UserStory[] {
  return stories
    .map((story, index) => ({ story, index }))
    .sort((a, b) => a.story.priority - b.story.priority || a.index - b.index)
    .map(({ story }) => story);
}

/** A copy of `prd` with one story marked as passing; every other field, known or not, kept. */
export function withStoryPassed(prd: Prd, storyId: string): Prd {
  if (!prd.userStories.some((story) => story.id === storyId))
    throw new NotFoundError(`prd.json has no story "${storyId}"`);
  return {
    ...prd,
    userStories: prd.userStories.map((story) =>
      story.id === storyId ? { ...story, passes: true } : story,
    ),
  };
}

/** Serialises as Ralph does: two-space indentation and a trailing newline. */
export function serializePrd(prd: Prd): string {
  return `${JSON.stringify(prd, null, 2)}\n`;
}

/** `ralph/task-priority` → `task-priority`, the name Ralph's archive folders use. */
export function branchFeatureName(branchName: string): string {
  return branchName.replace(/^ralph\//, '');
}

/** What every extracted pattern reads from a run: its task categories and its source entry. */
import type { PatternSource, TaskCategory } from '../../schemas/learning.js';
import { taskCategory } from '../task-category.js';
import type { RunHistory } from './candidate.js';

/**
 * Each task's category, from its story; an iteration of a task the history does not list
 * (a story removed since) is categorised by the title it ran under.
 *
 * @example
 * const categoryOf = taskCategories(history);
 * categoryOf('US-002', 'Fix crash on empty cart'); // 'bugfix'
 */
export function taskCategories(
  history: RunHistory,
): (taskId: string, titleFallback: string) => TaskCategory {
  const byTask = new Map(history.tasks.map((task) => [task.taskId, taskCategory(task.story)]));
  return (taskId, titleFallback) =>
    byTask.get(taskId) ?? taskCategory({ title: titleFallback, description: '' });
}

/**
 * The run as a pattern's source, naming the iterations the pattern was read from.
 *
 * @example
 * runSource(history, [3, 1]); // { runId, projectId, iterations: [1, 3], at: history.endedAt }
 */
export function runSource(
  history: Pick<RunHistory, 'runId' | 'projectId' | 'endedAt'>,
  iterations: Iterable<number>,
): PatternSource {
  return {
    runId: history.runId,
    projectId: history.projectId,
    iterations: [...new Set(iterations)].sort((a, b) => a - b),
    at: history.endedAt,
  };
}

/** Distinct, sorted tags. */
export function tagSet(...groups: readonly (readonly string[])[]): string[] {
  return [...new Set(groups.flat())].sort();
}

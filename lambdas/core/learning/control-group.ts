/**
 * The control group: a share of tasks runs with nothing injected, so that what injection
 * does is measured against tasks without it, not assumed (issue 17; published work on
 * agent memory shows injected experience can hurt when it is wrongly selected). The choice
 * is stable: a task is a control for every iteration of its run, and a retried step
 * decides the same.
 */
import type { LearningConfig } from '../schemas/learning-config.js';
import { fnv1a } from '../shared/fnv.js';

/**
 * @example
 * isControlTask('r-20261127-ab12', 'US-003', { share: 0.1 }); // false for 9 tasks in 10
 * isControlTask('r-1', 'US-003', { share: 0, tasks: ['US-003'] }); // true: named outright
 */
export function isControlTask(
  runId: string,
  taskId: string,
  control: LearningConfig['control'],
): boolean {
  if (control.tasks !== undefined) return control.tasks.includes(taskId);
  if (control.share <= 0) return false;
  return Number.parseInt(fnv1a(`${runId}\u0000${taskId}`), 16) / 0x1_0000_0000 < control.share;
}

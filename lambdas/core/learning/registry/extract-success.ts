/**
 * Success patterns: per task category, how the run's passed tasks were done and how many
 * iterations they took. One per category per run; merging keeps one per category.
 */
import { mean } from '../../shared/stats.js';
import type { IterationRecord } from '../../schemas/iteration.js';
import type { TaskCategory } from '../../schemas/learning.js';
import type { PatternCandidate, RunHistory } from './candidate.js';
import type { ExtractOptions } from './extract-options.js';
import { runSource, tagSet, taskCategories } from './history-facts.js';
import { languagesOf } from './languages.js';
import { successPatternId } from './pattern-ids.js';
import { agentLesson, clip } from './pattern-text.js';
import { attemptsByTask } from './task-attempts.js';

interface PassedTask {
  /** The iteration that passed it last. */
  readonly passing: IterationRecord;
  readonly iterations: number;
}

/**
 * Over the tasks the run completed: the approach (the passing iterations' most common
 * report) and the mean iterations per task. The source names each task's passing
 * iteration, one per task: merging weighs averageIterations by that count.
 *
 * @example
 * successCandidates(history, options)[0];
 * // { patternId: 'success-bugfix', type: 'success', averageIterations: 2, … }
 */
export function successCandidates(
  history: RunHistory,
  options: ExtractOptions,
): PatternCandidate[] {
  const categoryOf = taskCategories(history);
  const attempts = attemptsByTask(history);
  const byCategory = new Map<TaskCategory, PassedTask[]>();
  for (const task of history.tasks) {
    if (task.status !== 'complete') continue;
    const taskAttempts = attempts.get(task.taskId) ?? [];
    const passing = taskAttempts.findLast((attempt) => !attempt.issue)?.record;
    if (!passing) continue;
    const category = categoryOf(task.taskId, task.story.title);
    const passed = byCategory.get(category) ?? [];
    passed.push({ passing, iterations: taskAttempts.length });
    byCategory.set(category, passed);
  }
  return [...byCategory].flatMap(([category, passed]) => {
    const approach = commonestApproach(passed.map((task) => agentLesson(task.passing)));
    const average = mean(passed.map((task) => task.iterations));
    if (approach === undefined || average === null) return [];
    return [
      {
        patternId: successPatternId(category),
        type: 'success' as const,
        title: `Approach for ${category} tasks`,
        body: clip(approach, options.maxBodyChars),
        category,
        tags: tagSet(languagesOf(passed.flatMap((task) => task.passing.filesChanged))),
        averageIterations: average,
        sources: [
          runSource(
            history,
            passed.map((task) => task.passing.iteration),
          ),
        ],
      },
    ];
  });
}

/**
 * The approach reported most often (case and spacing aside); ties go to the shortest, then
 * the first in alphabetical order, so the same run always gives the same body.
 *
 * @example
 * commonestApproach(['Wrote tests first', 'Refactored', 'wrote tests  first']); // 'Wrote tests first'
 */
export function commonestApproach(reports: readonly (string | undefined)[]): string | undefined {
  const counts = new Map<string, { text: string; count: number }>();
  for (const report of reports) {
    if (report === undefined) continue;
    const key = report.toLowerCase();
    const seen = counts.get(key);
    counts.set(key, { text: seen?.text ?? report, count: (seen?.count ?? 0) + 1 });
  }
  return [...counts.values()].sort(
    (a, b) =>
      b.count - a.count ||
      a.text.length - b.text.length ||
      (a.text < b.text ? -1 : a.text > b.text ? 1 : 0),
  )[0]?.text;
}

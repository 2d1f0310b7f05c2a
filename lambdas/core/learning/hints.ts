/**
 * Stage 0A (shared/design/learned-rules.md): when a task passes after failing, the run
 * records a hint (the issue it met, where, and what the agent learned), and later
 * iterations of the same run whose task is of the same category and in the same place get
 * the newest few in a "Lessons from earlier iterations" section.
 */
import type { IterationRecord } from '../schemas/iteration.js';
import type { RunHint, TaskCategory } from '../schemas/learning.js';
import { issueKeyOf, issueKeyText } from './issue-key.js';
import { agentLesson, changedFiles } from './registry/pattern-text.js';
import { sameScope } from './scope.js';
import { taskCategory } from './task-category.js';

/** Files named in a hint's words; the rest are counted. */
const FILES_SHOWN = 3;
/** Learnings quoted as the lesson. */
const LESSONS_SHOWN = 2;

export interface PassedTask {
  runId: string;
  story: { title: string; description: string };
  /** The task's recorded iterations, oldest first, `passed` among them. */
  taskIterations: readonly IterationRecord[];
  passed: IterationRecord;
  now: string;
}

/**
 * The hint a pass teaches: undefined unless the iteration passed and the task failed since
 * it last passed. The issue is that of the latest failure.
 *
 * @example
 * hintFromPass({ runId, story, taskIterations: [failed3, passed4], passed: passed4, now });
 * // { hintId: 'h4', issue: { class: 'tests', signature: ... }, sourceIterations: [3, 4],
 * //   text: 'Resolved tests: ... in src/cart.js - start every module with "use strict"', ... }
 */
export function hintFromPass(input: PassedTask): RunHint | undefined {
  const { passed } = input;
  if (passed.outcome !== 'passed') return undefined;
  const before = input.taskIterations.filter((record) => record.iteration < passed.iteration);
  const lastPass = before.findLastIndex((record) => record.outcome === 'passed');
  const failures = before.slice(lastPass + 1).filter((record) => record.outcome !== undefined);
  const failed = failures.findLast((record) => issueKeyOf(record) !== undefined);
  const issue = failed ? issueKeyOf(failed) : undefined;
  if (!issue) return undefined;
  const lesson = agentLesson(passed, LESSONS_SHOWN) ?? '';
  const files = passed.filesChanged;
  const where = files.length === 0 ? '' : ` in ${changedFiles(files, FILES_SHOWN)}`;
  return {
    runId: input.runId,
    hintId: `h${passed.iteration}`,
    iteration: passed.iteration,
    taskId: passed.taskId,
    category: taskCategory(input.story),
    issue,
    scopePaths: [...files],
    sourceIterations: [...failures.map((record) => record.iteration), passed.iteration],
    lesson,
    text: `Resolved ${issueKeyText(issue)}${where}${lesson ? ` - ${lesson}` : ''}`,
    createdAt: input.now,
  };
}

/** The task a later iteration works on, as hints are matched to it. */
export interface HintTarget {
  category: TaskCategory;
  /** Files the task touched so far (empty before its first attempt: any place matches). */
  scopePaths: readonly string[];
}

/**
 * The hints relevant to a task: same category, same place, newest first, at most `max`.
 *
 * @example
 * relevantHints(hints, { category: 'feature', scopePaths: ['src/cart.js'] }, 5);
 */
export function relevantHints(
  hints: readonly RunHint[],
  target: HintTarget,
  max: number,
): RunHint[] {
  return hints
    .filter(
      (hint) => hint.category === target.category && sameScope(hint.scopePaths, target.scopePaths),
    )
    .sort((left, right) => right.iteration - left.iteration)
    .slice(0, max);
}

/**
 * Anti-patterns, the design's "repeated dead ends": an issue key one task failed with
 * `antiPatternFailures` times or more, and work loop control reset (a RESET verdict). The
 * body says what was tried and what to do instead: the task's eventual fix, if it passed.
 */
import type { IterationRecord } from '../../schemas/iteration.js';
import type { IssueKey } from '../../schemas/learning.js';
import { issueKeyText } from '../issue-key.js';
import type { HistoryTask, PatternCandidate, RunHistory } from './candidate.js';
import type { ExtractOptions } from './extract-options.js';
import { runSource, tagSet, taskCategories } from './history-facts.js';
import { languagesOf } from './languages.js';
import { antiPatternId } from './pattern-ids.js';
import { agentLesson, clip, fixApproach, oneLine, sentence } from './pattern-text.js';
import { attemptsByTask, failuresByIssue, type Attempt } from './task-attempts.js';

/** The approaches a body lists as tried: enough to recognise, short enough for a prompt. */
const TRIED_SHOWN = 2;

interface DeadEnd {
  readonly title: string;
  readonly issue: IssueKey;
  /** What happened, as the body's first sentence. */
  readonly what: string;
  readonly failed: readonly IterationRecord[];
  /** The iteration after which the task's eventual fix is looked for. */
  readonly after: number;
}

/**
 * @example
 * antiPatternCandidates(history, options)[0].title; // 'Repeated failure: tests: …'
 */
export function antiPatternCandidates(
  history: RunHistory,
  options: ExtractOptions,
): PatternCandidate[] {
  const categoryOf = taskCategories(history);
  const attempts = attemptsByTask(history);
  const candidates: PatternCandidate[] = [];
  for (const [taskId, records] of iterationsByTask(history)) {
    const taskAttempts = attempts.get(taskId) ?? [];
    const deadEnds = [
      ...repeatedFailures(taskAttempts, options.antiPatternFailures),
      ...resets(records, taskAttempts),
    ];
    for (const deadEnd of deadEnds) {
      const fix = taskAttempts.find(
        (attempt) => !attempt.issue && attempt.record.iteration > deadEnd.after,
      )?.record;
      const title = records[0]?.taskTitle ?? '';
      candidates.push({
        patternId: antiPatternId(deadEnd.issue),
        type: 'anti',
        title: clip(deadEnd.title, options.maxTitleChars),
        body: clip(antiBody(deadEnd, fix, options.maxFiles), options.maxBodyChars),
        category: categoryOf(taskId, title),
        issue: deadEnd.issue,
        tags: tagSet(
          [deadEnd.issue.class],
          languagesOf([...deadEnd.failed, ...(fix ? [fix] : [])].flatMap((r) => r.filesChanged)),
        ),
        sources: [
          runSource(history, [
            ...deadEnd.failed.map((record) => record.iteration),
            ...(fix ? [fix.iteration] : []),
          ]),
        ],
      });
    }
  }
  return candidates;
}

function repeatedFailures(attempts: readonly Attempt[], threshold: number): DeadEnd[] {
  return failuresByIssue(attempts)
    .filter((group) => group.length >= threshold)
    .flatMap((group) => {
      const issue = group[0]?.issue;
      if (!issue) return [];
      const failed = group.map((attempt) => attempt.record);
      return [
        {
          title: `Repeated failure: ${issueKeyText(issue)}`,
          issue,
          what: `Retrying failed ${group.length} times with the same error`,
          failed,
          after: Math.max(...failed.map((record) => record.iteration)),
        },
      ];
    });
}

/**
 * Iterations after which the supervisor's verdict was RESET. The key is the iteration's own
 * failure; a reset after a pass (a regression, warnings piling up) is keyed on the rule.
 */
function resets(records: readonly IterationRecord[], attempts: readonly Attempt[]): DeadEnd[] {
  return records.flatMap((record) => {
    const verdict = record.control?.verdict;
    if (verdict?.verdict !== 'RESET') return [];
    const issue = attempts.find((attempt) => attempt.record === record)?.issue ?? {
      class: 'reset',
      signature: verdict.rule,
    };
    return [
      {
        title: `Reset after: ${issueKeyText(issue)}`,
        issue,
        what: `Loop control reset the work (${oneLine(verdict.reason)})`,
        failed: [record],
        after: record.iteration,
      },
    ];
  });
}

function antiBody(deadEnd: DeadEnd, fix: IterationRecord | undefined, maxFiles: number): string {
  const tried = [
    ...new Set(deadEnd.failed.map(agentLesson).filter((lesson) => lesson !== undefined)),
  ].slice(0, TRIED_SHOWN);
  const instead = fix ? fixApproach(fix, maxFiles) : undefined;
  return [
    sentence(deadEnd.what),
    tried.length > 0 ? `Tried: ${sentence(tried.join('; '))}` : '',
    instead
      ? `Instead: ${instead}`
      : 'No fix was found: change the approach rather than retrying it.',
  ]
    .filter((part) => part !== '')
    .join(' ');
}

function iterationsByTask(history: RunHistory): Map<HistoryTask['taskId'], IterationRecord[]> {
  const byTask = new Map<string, IterationRecord[]>();
  for (const record of [...history.iterations].sort((a, b) => a.iteration - b.iteration))
    byTask.set(record.taskId, [...(byTask.get(record.taskId) ?? []), record]);
  return byTask;
}

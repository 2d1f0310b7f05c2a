/**
 * Error→fix patterns: a task failed with an issue key and a later iteration of the same
 * task passed. The pattern names the key and says how the pass fixed it.
 */
import { issueKeyText } from '../issue-key.js';
import type { PatternCandidate, RunHistory } from './candidate.js';
import type { ExtractOptions } from './extract-options.js';
import { runSource, tagSet, taskCategories } from './history-facts.js';
import { languagesOf } from './languages.js';
import { errorPatternId } from './pattern-ids.js';
import { clip, fixApproach } from './pattern-text.js';
import { attemptsByTask, failuresByIssue, resolvedFailures } from './task-attempts.js';

/**
 * One candidate per issue key a pass resolved; a pass that reported nothing and changed
 * nothing teaches no fix and gives none.
 *
 * @example
 * errorFixCandidates(history, options)[0];
 * // { patternId: 'err-…', type: 'error', title: "typecheck: <file> error TS2339: …", … }
 */
export function errorFixCandidates(
  history: RunHistory,
  options: ExtractOptions,
): PatternCandidate[] {
  const categoryOf = taskCategories(history);
  const candidates: PatternCandidate[] = [];
  for (const [taskId, attempts] of attemptsByTask(history)) {
    for (const { failed, passed } of resolvedFailures(attempts)) {
      const fix = fixApproach(passed.record, options.maxFiles);
      if (fix === undefined) continue;
      for (const group of failuresByIssue(failed)) {
        const issue = group[0]?.issue;
        if (!issue) continue;
        candidates.push({
          patternId: errorPatternId(issue),
          type: 'error',
          title: clip(issueKeyText(issue), options.maxTitleChars),
          body: clip(fix, options.maxBodyChars),
          category: categoryOf(taskId, passed.record.taskTitle),
          issue,
          tags: tagSet([issue.class], languagesOf(passed.record.filesChanged)),
          sources: [
            runSource(history, [
              ...group.map((attempt) => attempt.record.iteration),
              passed.record.iteration,
            ]),
          ],
        });
      }
    }
  }
  return candidates;
}

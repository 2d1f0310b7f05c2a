/**
 * A run's iterations per task, as attempts at it: what each attempt's outcome says about
 * the agent's approach (passed, or failed with which issue key), and which failures a
 * later pass resolved.
 */
import { AGENT_FAILURES } from '../issue-key.js';
import type { IssueKey } from '../../schemas/learning.js';
import type { IterationRecord } from '../../schemas/iteration.js';
import type { IterationOutcome } from '../../schemas/outcome.js';
import { issueKeyOf, issueKeyText } from '../issue-key.js';
import type { RunHistory } from './candidate.js';

/**
 * Outcomes that judge the agent's work. A cancel, an interruption, a runner fault or a
 * broken workspace says nothing about an approach, so it teaches nothing and counts as no
 * use of what the prompt carried.
 */
const AGENT_OUTCOMES: ReadonlySet<IterationOutcome> = new Set(['passed', ...AGENT_FAILURES]);

/** @example judgesTheAgent('cancelled'); // false */
export function judgesTheAgent(outcome: IterationOutcome | undefined): outcome is IterationOutcome {
  return outcome !== undefined && AGENT_OUTCOMES.has(outcome);
}

export interface Attempt {
  readonly record: IterationRecord;
  /** Set when the attempt failed. */
  readonly issue?: IssueKey;
}

/** Failed attempts and the pass that ended them. */
export interface ResolvedFailures {
  readonly failed: readonly Attempt[];
  readonly passed: Attempt;
}

/**
 * Each task's attempts in iteration order (tasks without any are left out).
 *
 * @example
 * attemptsByTask(history).get('US-001')?.map((a) => a.issue?.class); // ['typecheck', undefined]
 */
export function attemptsByTask(history: RunHistory): Map<string, Attempt[]> {
  const byTask = new Map<string, Attempt[]>();
  const ordered = [...history.iterations].sort((a, b) => a.iteration - b.iteration);
  for (const record of ordered) {
    const { outcome } = record;
    if (!judgesTheAgent(outcome)) continue;
    const issue = issueKeyOf({
      outcome,
      gates: record.gates,
      cause: record.cause,
    });
    const attempts = byTask.get(record.taskId) ?? [];
    attempts.push(issue ? { record, issue } : { record });
    byTask.set(record.taskId, attempts);
  }
  return byTask;
}

/**
 * Every pass that followed failures, with the failures since the previous pass.
 *
 * @example
 * resolvedFailures(attempts); // [{ failed: [iteration 1, iteration 2], passed: iteration 3 }]
 */
export function resolvedFailures(attempts: readonly Attempt[]): ResolvedFailures[] {
  const resolved: ResolvedFailures[] = [];
  let failed: Attempt[] = [];
  for (const attempt of attempts) {
    if (attempt.issue) failed.push(attempt);
    else {
      if (failed.length > 0) resolved.push({ failed, passed: attempt });
      failed = [];
    }
  }
  return resolved;
}

/**
 * Failed attempts grouped by issue key, in the order the keys first failed.
 *
 * @example
 * failuresByIssue(attempts).map((group) => group.length); // [3, 1]
 */
export function failuresByIssue(attempts: readonly Attempt[]): Attempt[][] {
  const groups = new Map<string, Attempt[]>();
  for (const attempt of attempts) {
    if (!attempt.issue) continue;
    const key = issueKeyText(attempt.issue);
    groups.set(key, [...(groups.get(key) ?? []), attempt]);
  }
  return [...groups.values()];
}

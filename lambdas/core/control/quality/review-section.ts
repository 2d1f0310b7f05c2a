/**
 * The findings a task in review (design §3.4's InReview) hands its review iteration, one
 * line each; plan-control renders them with the `section-review` template, in the
 * reviewer's mode (design §3.8).
 */
import { z } from 'zod';
import type { TaskRecord } from '../../schemas/task.js';
import type { ReviewFinding, ReviewFindingKind } from '../../schemas/review.js';

/**
 * What a review iteration works on, as prepare-iteration hands it to plan-control (which
 * renders the plan's `review` section): the findings, one line each, and whether this is
 * the task's last review iteration (it completes after it, findings or not). The wording
 * around them is the `section-review` prompt template's.
 */
export const ReviewWorkSchema = z.object({
  /** One line per finding, plain text (`[security] audit: 2 moderate vulnerabilities ...`). */
  lines: z.array(z.string().min(1)).min(1),
  last: z.boolean(),
});
export type ReviewWork = z.infer<typeof ReviewWorkSchema>;

const LABELS: Record<ReviewFindingKind, string> = {
  test_failures: 'tests',
  missing_tests: 'missing tests',
  security: 'security',
  warnings: 'warnings',
  advisory_gate: 'advisory gate',
};

/**
 * One finding as a line: its kind, its gate when it has one, its message.
 *
 * @example
 * findingLine({ kind: 'warnings', gate: 'lint', message: '3 warnings (eslint)' })
 * // '[warnings] lint: 3 warnings (eslint)'
 */
export function findingLine(finding: ReviewFinding): string {
  return `[${LABELS[finding.kind]}] ${finding.gate ? `${finding.gate}: ` : ''}${finding.message}`;
}

/**
 * The review work of a task in review with findings; undefined otherwise.
 *
 * @example
 * reviewWork(task, { maxReviewIterations: 1 })
 * // { lines: ['[missing tests] 12 source lines added ...'], last: true }
 */
export function reviewWork(
  task: Pick<TaskRecord, 'status' | 'review'>,
  settings: { maxReviewIterations: number },
): ReviewWork | undefined {
  const findings = task.review?.findings ?? [];
  if (task.status !== 'in_review' || findings.length === 0) return undefined;
  return {
    lines: findings.map(findingLine),
    last: (task.review?.reviews ?? 0) + 1 >= settings.maxReviewIterations,
  };
}

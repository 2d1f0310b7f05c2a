/**
 * An investigation without a verified fix, kept as a `refused` record and, when the project
 * names an issue for it, posted there as a comment: the record says `pending` before the
 * comment is posted and `posted` after, so a retried step does not post again. (A step that
 * dies between the post and the save posts once more on its retry: the host offers no key
 * to make a comment idempotent.)
 */
import type { FixPullRequest } from '../schemas/investigation.js';
import type { CodeHost } from '../../ports.js';
import type { FixPullRequestDeps } from './fix-pull-request-deps.js';
import { createOrFind, type PendingPullRequest } from './open-pull-request-for-fix.js';

/** The record of `refused`'s task, its comment posted when it names an issue. */
export async function commentAnalysis(
  deps: FixPullRequestDeps & { codeHost: CodeHost },
  refused: PendingPullRequest,
): Promise<FixPullRequest> {
  const record = await createOrFind(deps, refused);
  const { comment } = record;
  if (comment === undefined || comment.state === 'posted') return record;
  const posted = await deps.codeHost.commentOnIssue(record.repo, comment.issueNumber, record.body);
  return deps.fixPullRequests.save(
    {
      ...record,
      comment: { ...comment, state: 'posted', id: posted.id, htmlUrl: posted.htmlUrl },
      updatedAt: deps.clock.now().toISOString(),
    },
    record.version,
  );
}

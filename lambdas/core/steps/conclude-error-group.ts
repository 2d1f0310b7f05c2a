/**
 * What an investigation makes of its error group, once its pull-request step has an
 * outcome: `fixed` with the pull request, or `given_up` with why there is none. A later
 * delivery of the group then only adds to its counts, unless the error regresses
 * (core/intake). Only the run that is investigating the group concludes it: a group taken
 * up again since (a regression, another run) is left as it is.
 */
import { VersionConflictError } from '../errors.js';
import type { ErrorGroupKey } from '../schemas/error-group.js';
import type { FixPullRequestOutcome } from '../schemas/investigation-report.js';
import type { IncidentStore } from '../../ports.js';

/** Saves lost to a concurrent delivery of the same group (it adds counts) before giving up. */
const MAX_TRIES = 5;

export type ConcludedGroup = 'fixed' | 'given_up' | 'left';

/**
 * @example
 * await concludeErrorGroup(incidents, { source: 'sentry', fingerprint: 'issue:42' }, 'r1', outcome);
 */
export async function concludeErrorGroup(
  incidents: IncidentStore,
  key: ErrorGroupKey,
  runId: string,
  outcome: Pick<FixPullRequestOutcome, 'outcome' | 'reason' | 'pullRequest'>,
): Promise<ConcludedGroup> {
  for (let attempt = 1; ; attempt += 1) {
    const group = await incidents.getGroup(key);
    if (group === undefined || group.status !== 'investigating' || group.runId !== runId)
      return 'left';
    const { pullRequest } = outcome;
    const concluded =
      outcome.outcome === 'opened' && pullRequest !== undefined
        ? {
            ...group,
            status: 'fixed' as const,
            statusReason: `${pullRequest.draft ? 'draft ' : ''}pull request #${pullRequest.number}`,
            pullRequest: { number: pullRequest.number, htmlUrl: pullRequest.htmlUrl },
          }
        : {
            ...group,
            status: 'given_up' as const,
            statusReason: outcome.reason || `no pull request (${outcome.outcome})`,
          };
    try {
      await incidents.saveGroup(concluded, group.version);
      return concluded.status;
    } catch (error) {
      if (!(error instanceof VersionConflictError) || attempt >= MAX_TRIES) throw error;
    }
  }
}

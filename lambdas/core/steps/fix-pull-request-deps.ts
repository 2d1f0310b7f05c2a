/** The ports of the pull-request step of an investigate run. */
import type { CodeHost, FixPullRequests, IncidentStore } from '../../ports.js';
import type { LoopDeps } from './deps.js';

export interface FixPullRequestDeps extends LoopDeps {
  fixPullRequests: FixPullRequests;
  /** The error groups: a group is concluded (fixed or given up) with its outcome. */
  incidents: IncidentStore;
  /**
   * The code host with access to the runs' repositories; absent where none is configured
   * (a local stack without GitHub access): a fix is then refused, with that reason.
   */
  codeHost?: CodeHost;
}

/** The fix branches' prefix: what the cap of open pull requests counts. */
export const FIX_BRANCH_PREFIX = 'ralph/fix/';

/** The verdict on an iteration stopped early: the run was cancelled, or the runner told to stop. */
import type { Verdict } from './agent-outcome.js';
import type { CancelWatch } from './cancel-watch.js';

export function stopVerdict(cancel: CancelWatch, when: string): Verdict {
  return cancel.reason === 'interrupted'
    ? { outcome: 'interrupted', cause: `the runner was told to stop ${when}` }
    : { outcome: 'cancelled', cause: `the run was cancelled ${when}` };
}

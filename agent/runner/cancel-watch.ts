/**
 * One abort signal for both reasons to stop an iteration early: the run's cancel request
 * (polled from the run store while the agent and the gates run) and this process being
 * told to stop (the container's SIGTERM, passed in as a signal).
 */
import type { RunStore } from '../../lambdas/ports.js';
import type { Iteration } from './iteration.js';

export const DEFAULT_CANCEL_POLL_MS = 2_000;

export type StopReason = 'cancelled' | 'interrupted';

export class CancelWatch {
  private readonly controller = new AbortController();
  private timer: NodeJS.Timeout | undefined;
  private inFlight: Promise<void> | undefined;
  private stopped = false;
  private interrupted = false;
  private readonly onInterrupt = () => {
    this.interrupted = true;
    this.controller.abort();
  };

  constructor(
    private readonly runs: RunStore,
    private readonly runId: string,
    private readonly options: {
      pollMs?: number;
      signal?: AbortSignal;
      /**
       * The run already asks to be cancelled, as the caller has just read it: the signal
       * aborts at once, without a poll of its own.
       */
      requested?: boolean;
    } = {},
  ) {
    if (options.signal?.aborted) this.onInterrupt();
    else if (options.requested) this.controller.abort();
    options.signal?.addEventListener('abort', this.onInterrupt, { once: true });
    this.schedule();
  }

  get signal(): AbortSignal {
    return this.controller.signal;
  }

  /** Why the signal aborted; meaningful once it has. */
  get reason(): StopReason {
    return this.interrupted ? 'interrupted' : 'cancelled';
  }

  /** Checks the run now; true when the iteration should stop. */
  async check(): Promise<boolean> {
    if (!this.controller.signal.aborted) await this.poll();
    return this.controller.signal.aborted;
  }

  /** Stops polling; resolves once a poll in flight has settled. */
  async stop(): Promise<void> {
    this.stopped = true;
    clearTimeout(this.timer);
    this.options.signal?.removeEventListener('abort', this.onInterrupt);
    await this.inFlight;
  }

  private schedule(): void {
    if (this.stopped || this.controller.signal.aborted) return;
    this.timer = setTimeout(() => {
      this.inFlight = this.poll().finally(() => this.schedule());
    }, this.options.pollMs ?? DEFAULT_CANCEL_POLL_MS);
  }

  private async poll(): Promise<void> {
    try {
      const run = await this.runs.getRun(this.runId);
      if (run?.cancelRequested && !this.stopped) this.controller.abort();
    } catch {
      // A failed poll is retried at the next tick; the agent keeps running meanwhile.
    }
  }
}

/**
 * The claimed iteration's watch: the run as read for the claim says whether it is
 * cancelled already; from here on it is polled.
 */
export function watchRunCancel(it: Iteration): CancelWatch {
  return new CancelWatch(it.deps.runs, it.run.runId, {
    requested: it.run.cancelRequested,
    ...(it.deps.cancelPollMs === undefined ? {} : { pollMs: it.deps.cancelPollMs }),
    ...(it.deps.signal === undefined ? {} : { signal: it.deps.signal }),
  });
}

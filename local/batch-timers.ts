/**
 * The local BatchScheduler (`ralph serve`): a timer per batch that closes it when its window
 * ends, in this process. A close that fails is tried again with backoff a few times, then
 * reported; the batch stays open in the store, and the next start of the server (which
 * schedules every open batch again, `resumeOpen`) closes it. Stopping clears the timers.
 */
import type { BatchScheduler } from '../lambdas/ports.js';

export interface BatchRef {
  projectId: string;
  batchId: string;
  closesAt: string;
}

export interface BatchTimersOptions {
  /** Closes the batch (closeBatch over the local stack). */
  close(batch: BatchRef): Promise<unknown>;
  /** A close that failed for good, to tell the person running the server. */
  onError(batch: BatchRef, error: unknown): void;
  /** Tries per close. @default 5 */
  attempts?: number;
  /** The first pause between tries, doubled each time. @default 1000 */
  backoffMs?: number;
}

export class BatchTimers implements BatchScheduler {
  readonly #timers = new Map<string, NodeJS.Timeout>();
  readonly #closing = new Set<Promise<void>>();
  readonly #options: BatchTimersOptions;
  #stopped = false;

  constructor(options: BatchTimersOptions) {
    this.#options = options;
  }

  /** Scheduling a batch that has a timer already changes nothing. */
  async scheduleClose(batch: BatchRef): Promise<void> {
    const key = `${batch.projectId}/${batch.batchId}`;
    if (this.#stopped || this.#timers.has(key)) return;
    const delay = Math.max(0, Date.parse(batch.closesAt) - Date.now());
    const timer = setTimeout(() => {
      const closing = this.#closeWithRetries(batch).finally(() => {
        this.#timers.delete(key);
        this.#closing.delete(closing);
      });
      this.#closing.add(closing);
    }, delay);
    this.#timers.set(key, timer);
  }

  /** Clears the timers and waits for closes already going. */
  async stop(): Promise<void> {
    this.#stopped = true;
    for (const timer of this.#timers.values()) clearTimeout(timer);
    await Promise.allSettled([...this.#closing]);
  }

  async #closeWithRetries(batch: BatchRef): Promise<void> {
    const attempts = this.#options.attempts ?? 5;
    const backoffMs = this.#options.backoffMs ?? 1000;
    for (let attempt = 1; ; attempt += 1) {
      try {
        await this.#options.close(batch);
        return;
      } catch (error) {
        if (attempt >= attempts || this.#stopped) return this.#options.onError(batch, error);
        await new Promise((resolve) => setTimeout(resolve, backoffMs * 2 ** (attempt - 1)));
      }
    }
  }
}

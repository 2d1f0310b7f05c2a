/**
 * Times every call of a port (the incident store, the routes, the secrets, the scheduler):
 * a view of the real object whose methods, called through it, record their durations. Each
 * method runs on the object itself, so its own calls to its other methods (and private
 * fields) are untouched, and only the handler's calls are counted.
 */
import { performance } from 'node:perf_hooks';

export interface CallTotals {
  calls: number;
  /** Calls that threw (a lost race is a VersionConflictError, then tried again). */
  failed: number;
  ms: number;
}

export class PortTimer {
  /** By `port.method`, since the last reset. */
  readonly totals = new Map<string, CallTotals>();

  /** `target` seen through the timer, its calls recorded as `name.method`. */
  timed<T extends object>(name: string, target: T): T {
    return new Proxy(target, {
      get: (object, key) => {
        const value: unknown = Reflect.get(object, key, object);
        if (typeof value !== 'function') return value;
        return async (...args: unknown[]) => {
          const start = performance.now();
          let failed = true;
          try {
            const result: unknown = await Reflect.apply(value, object, args);
            failed = false;
            return result;
          } finally {
            this.#add(`${name}.${String(key)}`, performance.now() - start, failed);
          }
        };
      },
    });
  }

  reset(): void {
    this.totals.clear();
  }

  #add(label: string, ms: number, failed: boolean): void {
    const total = this.totals.get(label) ?? { calls: 0, failed: 0, ms: 0 };
    this.totals.set(label, {
      calls: total.calls + 1,
      failed: total.failed + (failed ? 1 : 0),
      ms: total.ms + ms,
    });
  }
}

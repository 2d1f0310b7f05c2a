/** A token bucket: `rate` requests per second on average, `burst` at once (API Gateway's throttle model). */
export class TokenBucket {
  #tokens: number;
  #last: number | undefined;

  constructor(private readonly limits: { rate: number; burst: number }) {
    this.#tokens = limits.burst;
  }

  /** Takes one token at time `nowMs`; false when the bucket is empty (throttled). */
  take(nowMs: number): boolean {
    if (this.#last !== undefined)
      this.#tokens = Math.min(
        this.limits.burst,
        this.#tokens + ((nowMs - this.#last) / 1000) * this.limits.rate,
      );
    this.#last = nowMs;
    if (this.#tokens < 1) return false;
    this.#tokens -= 1;
    return true;
  }
}

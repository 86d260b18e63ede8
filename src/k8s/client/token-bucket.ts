/** Client-side rate limit (QPS with a burst), as client-go's token bucket. */
import { sleep } from '../../core/abort.js';

/** A token bucket: `take()` resolves when a token is available. */
export class TokenBucket {
  private tokens: number;
  private last: number;

  /**
   * @param qps tokens added per second; 0 or less disables the limit
   * @param burst bucket size
   */
  constructor(
    private readonly qps: number,
    private readonly burst: number,
    private readonly now: () => number = () => performance.now(),
  ) {
    this.tokens = burst;
    this.last = now();
  }

  /** Waits for one token (or rejects when the signal aborts). */
  async take(signal?: AbortSignal): Promise<void> {
    if (this.qps <= 0) return;
    for (;;) {
      const t = this.now();
      this.tokens = Math.min(this.burst, this.tokens + ((t - this.last) / 1000) * this.qps);
      this.last = t;
      if (this.tokens >= 1) {
        this.tokens -= 1;
        return;
      }
      await sleep(Math.ceil(((1 - this.tokens) / this.qps) * 1000), signal);
    }
  }
}

/** Keeps reloads at least a minimum interval apart; runtime-only applies never consult it. */
import { sleep } from '../../core/abort.js';

/** Spaces reloads by `minIntervalMs`. */
export class ReloadPacer {
  readonly #minIntervalMs: number;
  readonly #now: () => number;
  #last = Number.NEGATIVE_INFINITY;

  constructor(minIntervalMs: number, now: () => number = () => performance.now()) {
    this.#minIntervalMs = minIntervalMs;
    this.#now = now;
  }

  /** Milliseconds until the next reload may start (0 when allowed now). */
  delayMs(): number {
    return Math.max(0, this.#last + this.#minIntervalMs - this.#now());
  }

  /** Waits until a reload may start. */
  async waitTurn(signal?: AbortSignal): Promise<number> {
    const delay = this.delayMs();
    if (delay > 0) await sleep(delay, signal);
    return delay;
  }

  /** Records that a reload just happened (successful or not: HAProxy did the work either way). */
  markReloaded(): void {
    this.#last = this.#now();
  }
}

/** Exponential backoff with full jitter: the one place retry delays are computed. */

/** Settings of an exponential backoff. */
export interface BackoffOptions {
  /** First delay in ms (before jitter). */
  readonly initialMs: number;
  /** Upper bound for any delay in ms. */
  readonly maxMs: number;
  /** Growth factor per attempt (default 2). */
  readonly factor?: number;
  /** Fraction of the delay that is randomised, 0..1 (default 0.5). */
  readonly jitter?: number;
}

/** Stateful exponential backoff. `next()` returns the delay for the next attempt. */
export class Backoff {
  private attempt = 0;

  constructor(
    private readonly options: BackoffOptions,
    private readonly random: () => number = Math.random,
  ) {}

  /** The delay in ms before the next retry; grows until `maxMs`. */
  next(): number {
    const { initialMs, maxMs, factor = 2, jitter = 0.5 } = this.options;
    const base = Math.min(maxMs, initialMs * factor ** this.attempt);
    this.attempt += 1;
    const spread = base * jitter;
    return Math.max(0, Math.round(base - spread + this.random() * spread));
  }

  /** Number of delays handed out since the last reset. */
  get attempts(): number {
    return this.attempt;
  }

  /** Starts over from `initialMs` (call after a success). */
  reset(): void {
    this.attempt = 0;
  }
}

/** Returns `ms` spread uniformly by up to ±`fraction` (e.g. watch timeouts). */
export function withJitter(
  ms: number,
  fraction: number,
  random: () => number = Math.random,
): number {
  return Math.round(ms * (1 - fraction + 2 * fraction * random()));
}

/** Time source, injectable so tests can use a FakeClock. */

/** The clock every component takes in its deps; never call Date.now() directly in logic. */
export interface Clock {
  /** Milliseconds since the epoch. */
  now(): number;
  /** Monotonic milliseconds for measuring durations. */
  monotonic(): number;
}

/** The real clock. */
export const systemClock: Clock = {
  now: () => Date.now(),
  monotonic: () => performance.now(),
};

/** RFC3339 at second precision in UTC (`2026-01-02T03:04:05Z`), as Go's metav1.Time marshals. */
export function rfc3339Seconds(ms: number): string {
  return new Date(Math.floor(ms / 1000) * 1000).toISOString().replace(/\.\d{3}Z$/, 'Z');
}

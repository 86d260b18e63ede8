import type { Clock } from '../../../src/core/clock.js';

/** A manually advanced monotonic/epoch clock. */
export class FakeClock implements Clock {
  constructor(private ms = 1_000_000) {}
  now(): number {
    return this.ms;
  }
  monotonic(): number {
    return this.ms;
  }
  advance(ms: number): void {
    this.ms += ms;
  }
}

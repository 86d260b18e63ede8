/**
 * Stall detection for the liveness probe (port of HAPTIC's lifecycle.HealthTracker), in two
 * modes that can be combined:
 * - processing: unhealthy while one unit of work has been running longer than
 *   `stallThresholdMs` (a handler stuck on a dead socket);
 * - activity: unhealthy when nothing was recorded for `activityTimeoutMs` (a timer component
 *   whose timer silently stopped; use interval x 1.5).
 * It reads the clock when asked and runs no timer.
 */
import { type Clock, systemClock } from '../core/clock.js';
import type { HealthReport } from './component.js';

/** Options of {@link HealthTracker}; omit a threshold to disable that mode. */
export interface HealthTrackerOptions {
  readonly clock?: Clock;
  readonly stallThresholdMs?: number;
  readonly activityTimeoutMs?: number;
}

/** See the module comment. */
export class HealthTracker {
  private readonly clock: Clock;
  private readonly stallThresholdMs: number | undefined;
  private readonly activityTimeoutMs: number | undefined;
  private busySince: number | undefined;
  private busyWith: string | undefined;
  private lastActivity: number;

  constructor(options: HealthTrackerOptions = {}) {
    this.clock = options.clock ?? systemClock;
    this.stallThresholdMs = options.stallThresholdMs;
    this.activityTimeoutMs = options.activityTimeoutMs;
    this.lastActivity = this.clock.monotonic();
  }

  /** Marks the start of one unit of work, described by `label` (e.g. the event type). */
  beginProcessing(label: string): void {
    this.busySince = this.clock.monotonic();
    this.busyWith = label;
  }

  /** Marks the end of the current unit of work; counts as activity. */
  endProcessing(): void {
    this.busySince = undefined;
    this.busyWith = undefined;
    this.recordActivity();
  }

  /** Records that the component did something (a timer fired). */
  recordActivity(): void {
    this.lastActivity = this.clock.monotonic();
  }

  /** The current verdict. */
  check(): HealthReport {
    const now = this.clock.monotonic();
    if (this.stallThresholdMs !== undefined && this.busySince !== undefined) {
      const runningMs = now - this.busySince;
      if (runningMs > this.stallThresholdMs) {
        return {
          isHealthy: false,
          reason: `${this.busyWith ?? 'work'} running for ${Math.round(runningMs)} ms (threshold ${this.stallThresholdMs} ms)`,
        };
      }
    }
    if (this.activityTimeoutMs !== undefined && this.busySince === undefined) {
      const idleMs = now - this.lastActivity;
      if (idleMs > this.activityTimeoutMs) {
        return {
          isHealthy: false,
          reason: `no activity for ${Math.round(idleMs)} ms (timeout ${this.activityTimeoutMs} ms)`,
        };
      }
    }
    return { isHealthy: true };
  }
}

/**
 * What the lifecycle registry runs: a named unit with an abortable `start`. Mirrors
 * controller-runtime's `Runnable` (Start(ctx) error) with its capability interfaces as optional
 * members.
 */

/**
 * Lifecycle state of a registered component, as reported by `LifecycleRegistry.status()`.
 *
 * - `pending`: registered, `start()` not called yet (leader-only components wait here while
 *   this replica is not the leader).
 * - `starting`: `start()` called, `whenReady()` has not resolved yet.
 * - `running`: ready and serving.
 * - `stopping`: its signal was aborted; waiting for `start()` to settle.
 * - `stopped`: `start()` resolved (stopped cleanly; a leader-only component may start again).
 * - `failed`: `start()` or `whenReady()` rejected; the error is in the status.
 */
export type ComponentState = 'pending' | 'starting' | 'running' | 'stopping' | 'stopped' | 'failed';

/**
 * How a component's failure affects the controller.
 *
 * - `critical`: a failure ends the iteration (the reinitialization loop retries) and makes the
 *   health check fail.
 * - `degradable`: a failure is logged and shown in status; the controller keeps running.
 * - `optional`: like degradable, logged at warn level only.
 */
export type Criticality = 'critical' | 'degradable' | 'optional';

/** Result of a health probe. */
export interface HealthReport {
  readonly isHealthy: boolean;
  /** Why the component is unhealthy (absent when healthy). */
  readonly reason?: string;
}

/** A unit the lifecycle registry starts and stops. */
export interface Component {
  /** Kebab-case name, unique in a registry; used as logger child name and metric label. */
  readonly name: string;
  /**
   * Runs the component until `signal` aborts, then stops and resolves. Rejects only on a fatal
   * error. Leader-only components subscribe to the bus here, before their first `await`.
   */
  start(signal: AbortSignal): Promise<void>;
  /**
   * Resolves once the component serves (subscribed, caches synced). Components without it
   * count as ready as soon as `start()` has been called.
   */
  whenReady?(signal: AbortSignal): Promise<void>;
  /** Liveness probe, for example stall detection; absent means always healthy. */
  healthCheck?(): HealthReport;
}

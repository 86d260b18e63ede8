/**
 * The reinitialization loop (port of HAPTIC pkg/controller controller.go + iteration.go).
 *
 * Each iteration gets a fresh event bus, a fresh lifecycle registry and a fresh metrics
 * registry; `buildIteration` constructs and registers the components (they subscribe in their
 * constructors); then the registry starts them in order and the bus starts, releasing what was
 * published meanwhile. The iteration runs until
 * - a component calls `requestReinitialization()` (a validated config change): the iteration
 *   is stopped completely and the next one starts at once, in the same process;
 * - a critical component fails (or building/starting throws): the iteration is stopped and the
 *   next one starts after `retryDelayMs`;
 * - `signal` aborts (shutdown): the iteration is stopped and the loop returns.
 *
 * Stopping is bounded by `shutdownTimeoutMs` (25 s, below Kubernetes' 30 s grace period) and
 * logs which components are still stopping every `shutdownProgressIntervalMs`. A stop that does
 * not finish in time rejects the loop with DeadlineExceededError: starting a new iteration
 * beside a half-stopped one could run two deployers, so the process should exit instead.
 *
 * Servers that must not rebind their ports (health, metrics, webhook) are created once by the
 * caller and passed as `observers`: they are told about each iteration (to swap the health
 * checker or the metrics registry) and never rebuilt.
 */
import type { Logger } from 'pino';
import { Registry } from 'prom-client';

import { registerBusMetrics } from '../../bus/bus-metrics.js';
import { EventBus } from '../../bus/event-bus.js';
import { abortPromise, linkedController, sleep } from '../../core/abort.js';
import { DeadlineExceededError, describeError } from '../../core/errors.js';
import { LifecycleRegistry } from '../../component/lifecycle-registry.js';
import type { DomainEvent } from '../events/domain-events.js';
import { bindLeadership } from './leadership-bridge.js';

/** What one iteration is made of; handed to `buildIteration` and to observers. */
export interface IterationContext {
  /** 1 for the first iteration, then 2, 3, ... */
  readonly iteration: number;
  readonly bus: EventBus<DomainEvent>;
  readonly registry: LifecycleRegistry;
  /** Per-iteration prom-client registry (metrics restart with the iteration, as in HAPTIC). */
  readonly metrics: Registry;
  /** Child logger tagged with the iteration number. */
  readonly logger: Logger;
  /** Aborts when the iteration stops. */
  readonly signal: AbortSignal;
  /** Ends this iteration and starts a fresh one (a validated configuration change). */
  requestReinitialization(reason: string): void;
}

/** A long-lived server told about iterations (health, metrics, webhook). */
export interface IterationObserver {
  /** Called once the iteration's components run and its bus is started. */
  iterationStarted?(context: IterationContext): void;
  /** Called after the iteration's components have stopped (or failed to stop in time). */
  iterationStopped?(context: IterationContext): void;
}

/** Options of {@link runIterations}. */
export interface RunIterationsOptions {
  /** Builds one iteration: construct components and register them with `context.registry`. */
  readonly buildIteration: (context: IterationContext) => void | Promise<void>;
  /** Shutdown: stop the current iteration and return. */
  readonly signal: AbortSignal;
  readonly logger: Logger;
  /** Bound on stopping one iteration; default 25,000 ms. */
  readonly shutdownTimeoutMs?: number;
  /** How often a slow stop logs what it waits for; default 5,000 ms. */
  readonly shutdownProgressIntervalMs?: number;
  /** Pause before retrying after a failed iteration; default 5,000 ms. */
  readonly retryDelayMs?: number;
  /** Long-lived servers to keep informed. */
  readonly observers?: readonly IterationObserver[];
  /** Pre-start buffer of each iteration's bus; default the bus default (1,000). */
  readonly preStartCapacity?: number;
}

/** How the loop ended. */
export interface RunIterationsResult {
  readonly iterations: number;
}

/** Defaults, as in HAPTIC. */
export const DEFAULT_SHUTDOWN_TIMEOUT_MS = 25_000;
const DEFAULT_PROGRESS_INTERVAL_MS = 5_000;
const DEFAULT_RETRY_DELAY_MS = 5_000;

type Outcome =
  | { readonly kind: 'reinitialize'; readonly reason: string }
  | { readonly kind: 'failed'; readonly error: unknown }
  | { readonly kind: 'shutdown' };

/**
 * Runs iterations until `signal` aborts; see the module comment. Resolves after a clean
 * shutdown; rejects with DeadlineExceededError when an iteration does not stop in time.
 */
export async function runIterations(options: RunIterationsOptions): Promise<RunIterationsResult> {
  const { signal, logger } = options;
  let iteration = 0;
  while (!signal.aborted) {
    iteration++;
    const outcome = await runOneIteration(options, iteration);
    if (outcome.kind === 'shutdown') break;
    if (outcome.kind === 'reinitialize') {
      logger.info({ iteration, reason: outcome.reason }, 'reinitializing controller');
      continue;
    }
    const retryDelayMs = options.retryDelayMs ?? DEFAULT_RETRY_DELAY_MS;
    logger.error(
      { iteration, err: outcome.error, retryDelayMs },
      `controller iteration failed: ${describeError(outcome.error)}; retrying`,
    );
    try {
      await sleep(retryDelayMs, signal);
    } catch {
      break;
    }
  }
  logger.info({ iterations: iteration }, 'controller stopped');
  return { iterations: iteration };
}

async function runOneIteration(options: RunIterationsOptions, iteration: number): Promise<Outcome> {
  const logger = options.logger.child({ iteration });
  const { controller, dispose } = linkedController(options.signal);
  const bus = new EventBus<DomainEvent>({
    logger,
    ...(options.preStartCapacity === undefined
      ? {}
      : { preStartCapacity: options.preStartCapacity }),
    onDrop: (info) => {
      logger.warn({ ...info }, 'event dropped for a critical subscriber');
    },
  });
  const registry = new LifecycleRegistry({ logger, bus });
  const unbind = bindLeadership(bus, registry);
  let requestReinit: (reason: string) => void = () => undefined;
  const reinitRequested = new Promise<Outcome>((resolve) => {
    requestReinit = (reason) => {
      resolve({ kind: 'reinitialize', reason });
    };
  });
  const metrics = new Registry();
  registerBusMetrics(bus, metrics);
  const context: IterationContext = {
    iteration,
    bus,
    registry,
    metrics,
    logger,
    signal: controller.signal,
    requestReinitialization: (reason) => {
      requestReinit(reason);
    },
  };
  const shutdown = abortPromise(options.signal).then((): Outcome => ({ kind: 'shutdown' }));
  const failure = registry
    .whenCriticalFailure()
    .then((error): Outcome => ({ kind: 'failed', error }));

  let outcome: Outcome;
  try {
    logger.info('starting controller iteration');
    await options.buildIteration(context);
    await registry.startAll(controller.signal);
    bus.start();
    if (!options.signal.aborted) {
      for (const observer of options.observers ?? []) observer.iterationStarted?.(context);
      logger.info('controller iteration running');
    }
    // A reinitialization requested during startup takes effect now that startup has finished.
    outcome = await Promise.race([reinitRequested, failure, shutdown]);
  } catch (error) {
    outcome = options.signal.aborted ? { kind: 'shutdown' } : { kind: 'failed', error };
  }

  controller.abort();
  try {
    await stopWithDeadline(registry, logger, options);
  } finally {
    unbind();
    dispose();
    for (const observer of options.observers ?? []) observer.iterationStopped?.(context);
  }
  return outcome;
}

async function stopWithDeadline(
  registry: LifecycleRegistry,
  logger: Logger,
  options: RunIterationsOptions,
): Promise<void> {
  const timeoutMs = options.shutdownTimeoutMs ?? DEFAULT_SHUTDOWN_TIMEOUT_MS;
  const progressMs = options.shutdownProgressIntervalMs ?? DEFAULT_PROGRESS_INTERVAL_MS;
  const startedAt = performance.now();
  const pending = (): string[] =>
    registry
      .status()
      .filter((s) => s.state === 'stopping' || s.state === 'starting')
      .map((s) => s.name);
  logger.info({ timeoutMs }, 'stopping controller iteration');
  const progress = setInterval(() => {
    logger.info(
      { pending: pending(), elapsedMs: Math.round(performance.now() - startedAt), timeoutMs },
      'waiting for components to stop',
    );
  }, progressMs);
  let deadline: NodeJS.Timeout | undefined;
  try {
    const isStopped = await Promise.race([
      registry.stopAll().then(() => true),
      new Promise<false>((resolve) => {
        deadline = setTimeout(() => {
          resolve(false);
        }, timeoutMs);
      }),
    ]);
    if (!isStopped) {
      const stuck = pending();
      logger.error({ pending: stuck, timeoutMs }, 'components did not stop in time');
      throw new DeadlineExceededError(`stop components ${stuck.join(', ')}`, timeoutMs);
    }
    logger.info(
      { elapsedMs: Math.round(performance.now() - startedAt) },
      'controller iteration stopped',
    );
  } finally {
    clearInterval(progress);
    clearTimeout(deadline);
  }
}

/**
 * Base class of the controller's event adapters (port of HAPTIC's component.Base).
 *
 * - All-replica components subscribe in the constructor, held until `start()`, so nothing
 *   published before `bus.start()` is missed. Leader-only components subscribe in `start()`
 *   (a new subscription and an empty queue each leadership term) and unsubscribe on stop.
 * - Events are dispatched one at a time to `handleEvent`; a throwing or rejecting handler is
 *   caught, logged with the component name, counted, and the next event is processed.
 * - Mailbox mode (`mailbox` option): an unbounded queue with latest-wins coalescing, so the
 *   bus never drops an event for this component (see mailbox.ts). Otherwise a bounded queue.
 * - Stall detection: `healthCheck()` fails while one handler has been running longer than
 *   `stallThresholdMs`. It reads the clock on demand; no timer runs.
 */
import type { Logger } from 'pino';
import type { Registry } from 'prom-client';

import type { BusEvent, EventOfType } from '../bus/bus-event.js';
import type { EventBus } from '../bus/event-bus.js';
import type { Subscription } from '../bus/subscription.js';
import { abortPromise } from '../core/abort.js';
import { type Clock, systemClock } from '../core/clock.js';
import { InvalidArgumentError } from '../core/errors.js';
import type { Component, HealthReport } from './component.js';
import { registerComponentMetrics, type ComponentMetricsHandle } from './component-metrics.js';
import { HealthTracker } from './health-tracker.js';
import { CoalescingMailbox } from './mailbox.js';

/** Dependencies every event component takes. */
export interface EventComponentDeps<E extends BusEvent> {
  readonly bus: EventBus<E>;
  readonly logger: Logger;
  readonly clock?: Clock;
  /** Per-iteration metrics registry; omit to skip metrics. */
  readonly metrics?: Registry;
}

/** Shape of an event component, fixed by the subclass. */
export interface EventComponentOptions<T extends string> {
  /** Kebab-case component name. */
  readonly name: string;
  /** Event types handled; omitted or empty = every type. */
  readonly types?: readonly T[];
  /** Subscribe in `start()` and unsubscribe on stop (leader-only components). */
  readonly isLeaderOnly?: boolean;
  /** Bounded queue capacity when no mailbox is configured; default the bus default. */
  readonly capacity?: number;
  /** Mailbox mode: unbounded queue with coalescing of these types. */
  readonly mailbox?: {
    readonly coalescesOn: readonly T[];
    readonly coalescesAcrossQueue?: boolean;
  };
  /** A handler running longer than this fails the health check; default 120,000 ms. */
  readonly stallThresholdMs?: number;
}

const DEFAULT_STALL_THRESHOLD_MS = 120_000;

/**
 * See the module comment. Subclasses implement `handleEvent`.
 *
 * @example
 * ```ts
 * class StatusApplier extends EventComponent<DomainEvent, 'deployment.completed' | 'leader.lost'> {
 *   constructor(deps: EventComponentDeps<DomainEvent>) {
 *     super(deps, {
 *       name: 'status-applier',
 *       types: ['deployment.completed', 'leader.lost'],
 *       mailbox: { coalescesOn: ['deployment.completed'] },
 *     });
 *   }
 *   protected async handleEvent(
 *     event: EventOfType<DomainEvent, 'deployment.completed' | 'leader.lost'>,
 *     signal: AbortSignal,
 *   ) {
 *     if (event.type === 'deployment.completed') await this.apply(event.statusPatches, signal);
 *   }
 * }
 * registry.register(new StatusApplier({ bus, logger, metrics }));
 * ```
 */
export abstract class EventComponent<
  E extends BusEvent,
  T extends E['type'] = E['type'],
> implements Component {
  readonly name: string;
  /** True for components the registry must only run on the leader. */
  readonly needsLeaderElection: boolean;
  protected readonly bus: EventBus<E>;
  protected readonly logger: Logger;
  protected readonly clock: Clock;
  private readonly options: EventComponentOptions<T>;
  private readonly health: HealthTracker;
  private readonly metrics: Registry | undefined;
  private metricsHandle: ComponentMetricsHandle | undefined;
  private subscription: Subscription<E> | undefined;
  private mailbox: CoalescingMailbox<EventOfType<E, T>> | undefined;
  private termSignal: AbortSignal | undefined;
  private isRunning = false;
  private failures = 0;
  private handled = 0;

  constructor(deps: EventComponentDeps<E>, options: EventComponentOptions<T>) {
    this.name = options.name;
    this.options = options;
    this.needsLeaderElection = options.isLeaderOnly === true;
    this.bus = deps.bus;
    this.logger = deps.logger.child({ component: options.name });
    this.clock = deps.clock ?? systemClock;
    this.metrics = deps.metrics;
    this.health = new HealthTracker({
      clock: this.clock,
      stallThresholdMs: options.stallThresholdMs ?? DEFAULT_STALL_THRESHOLD_MS,
    });
    if (!this.needsLeaderElection) this.subscribe(false);
  }

  /**
   * Handles one event. Never called concurrently; `signal` aborts when the component stops.
   * Throwing is allowed (it is caught and counted) but handlers should handle their errors.
   */
  protected abstract handleEvent(
    event: EventOfType<E, T>,
    signal: AbortSignal,
  ): void | Promise<void>;

  /** Hook run at start, before the first event is dispatched. */
  protected onStart(_signal: AbortSignal): void | Promise<void> {
    return undefined;
  }

  /** Hook run after the last event of a run was handled, before `start()` resolves. */
  protected onStop(): void | Promise<void> {
    return undefined;
  }

  /** Events waiting in this component's queue (after coalescing). */
  get mailboxDepth(): number {
    return this.subscription?.depth ?? 0;
  }

  /** Handler invocations that threw or rejected. */
  get failureCount(): number {
    return this.failures;
  }

  /** Events handled (successfully or not). */
  get handledCount(): number {
    return this.handled;
  }

  /** Events replaced by a newer one in the mailbox (mailbox mode only). */
  get coalescedCount(): number {
    return this.mailbox?.coalesced ?? 0;
  }

  /**
   * Runs until `signal` aborts; see the module comment. The in-flight handler finishes before
   * this resolves; queued events are dropped with the subscription. Rejects only when
   * `onStart` or `onStop` throw.
   */
  async start(signal: AbortSignal): Promise<void> {
    if (this.isRunning) {
      throw new InvalidArgumentError(`component ${this.name} is already running`);
    }
    this.isRunning = true;
    this.termSignal = signal;
    // Leader-only: subscribe before the first await, so the registry can replay the bus.
    const subscription = this.needsLeaderElection
      ? this.subscribe(true)
      : (this.subscription ?? this.subscribe(false));
    try {
      const metrics = this.metrics;
      if (metrics !== undefined) {
        this.metricsHandle = registerComponentMetrics(metrics, this.name, () => this.mailboxDepth);
      }
      await this.onStart(signal);
      if (!signal.aborted) subscription.resume();
      await abortPromise(signal);
      subscription.pause();
      await subscription.whenIdle();
    } finally {
      // Also on a failed onStart: a leader-only component must not leak its subscription.
      subscription.unsubscribe();
      this.subscription = undefined;
      this.metricsHandle?.unregister();
      this.metricsHandle = undefined;
      this.isRunning = false;
    }
    await this.onStop();
  }

  /** Fails while a handler has been running longer than the stall threshold. */
  healthCheck(): HealthReport {
    return this.health.check();
  }

  private subscribe(isLeaderOnly: boolean): Subscription<E> {
    const { mailbox } = this.options;
    this.mailbox =
      mailbox === undefined
        ? undefined
        : new CoalescingMailbox<EventOfType<E, T>>({
            coalescesOn: mailbox.coalescesOn,
            coalescesAcrossQueue: mailbox.coalescesAcrossQueue === true,
            onDepthWarning: (depth) => {
              this.logger.warn({ depth }, 'component mailbox is growing');
            },
          });
    const subscription = this.bus.subscribe<T>({
      name: this.name,
      handler: (event) => this.dispatch(event),
      isPaused: true,
      isLeaderOnly,
      ...(this.options.types === undefined ? {} : { types: this.options.types }),
      ...(this.options.capacity === undefined ? {} : { capacity: this.options.capacity }),
      ...(this.mailbox === undefined ? {} : { queue: this.mailbox }),
    });
    this.subscription = subscription;
    return subscription;
  }

  private async dispatch(event: EventOfType<E, T>): Promise<void> {
    const signal = this.termSignal ?? AbortSignal.abort();
    this.health.beginProcessing(`handler for ${event.type}`);
    try {
      await this.handleEvent(event, signal);
    } catch (err) {
      this.failures++;
      this.metricsHandle?.recordFailure();
      this.logger.error({ err, eventType: event.type }, 'event handler failed');
    } finally {
      this.handled++;
      this.health.endProcessing();
    }
  }
}

/**
 * The in-process event bus joining the controller's components (port of HAPTIC pkg/events).
 *
 * - `publish` is synchronous, O(subscribers) and never blocks or awaits: it appends the event
 *   to each matching subscriber's own bounded queue and returns. A full queue drops the event
 *   for that subscriber only, counted per subscriber; drops of critical subscribers also fire
 *   the drop callback, drops of lossy (observability) subscribers are only counted.
 * - Before `start()` (and after `pause()`), events are kept in a bounded pre-start buffer and
 *   replayed in order on `start()`. This lets every component subscribe in its constructor and
 *   still see what was published while the others were being built.
 * - Typed subscriptions are filtered on the bus side by an index from type to subscribers.
 * - `request()` is scatter-gather (see request.ts).
 *
 * The bus is domain-agnostic: it is generic over any `{ type: string }` union.
 */
import type { Logger } from 'pino';

import { InvalidArgumentError } from '../core/errors.js';
import type { BusEvent, EventOfType, RequestEvent, ResponseEvent } from './bus-event.js';
import { scatterGather, type RequestOptions, type RequestResult } from './request.js';
import { RingQueue } from './ring-queue.js';
import {
  boundedQueue,
  Subscription,
  type EventHandler,
  type SubscriberQueue,
  type SubscriberStats,
  type SubscriptionHooks,
} from './subscription.js';

/** The logger calls the bus makes; a pino Logger fits. */
export type BusLogger = Pick<Logger, 'warn' | 'error'>;

/** Reported for every event dropped for a critical subscriber. */
export interface DropInfo {
  readonly eventType: string;
  readonly subscriberName: string;
  readonly capacity: number;
  readonly subscriberTypes: readonly string[];
}

/** Bus construction options; all optional. */
export interface EventBusOptions {
  /** Pre-start buffer bound; default 1,000 (HAPTIC's hard cap). */
  readonly preStartCapacity?: number;
  /** Default subscriber queue capacity; default 100. */
  readonly defaultCapacity?: number;
  /** Events a subscriber dispatches before yielding to timers and I/O; default 1,024. */
  readonly batchSize?: number;
  /** Warnings: pre-start overflow, late subscribers, handler failures. */
  readonly logger?: BusLogger;
  /** Called for each event dropped for a critical subscriber. */
  readonly onDrop?: (info: DropInfo) => void;
}

/** Options of `subscribe`. */
export interface SubscribeOptions<E extends BusEvent, T extends E['type']> {
  /** Subscriber name (kebab-case), used in logs, drop reports and metrics. */
  readonly name: string;
  /** Types delivered, filtered on the bus side; omitted or empty = every type. */
  readonly types?: readonly T[];
  /** Called one event at a time; a returned promise is awaited before the next event. */
  readonly handler: EventHandler<EventOfType<E, T>>;
  /** Queue capacity (ignored when `queue` is given); default the bus's `defaultCapacity`. */
  readonly capacity?: number;
  /** Lossy subscribers (observability) drop silently apart from a counter. */
  readonly isLossy?: boolean;
  /** Replaces the bounded queue, for example with a component's coalescing mailbox. */
  readonly queue?: SubscriberQueue<EventOfType<E, T>>;
  /** Create with dispatch held until `subscription.resume()`. */
  readonly isPaused?: boolean;
  /** Leader-only components subscribe after `start()` on purpose: no late-subscriber warning. */
  readonly isLeaderOnly?: boolean;
  /** Called when the handler throws or rejects (after the bus has counted it). */
  readonly onError?: (err: unknown, event: EventOfType<E, T>) => void;
}

/** Bus-wide counters. */
export interface BusStats {
  readonly published: number;
  readonly preStartBuffered: number;
  readonly preStartDropped: number;
  readonly droppedCritical: number;
  readonly droppedLossy: number;
  readonly subscribers: readonly SubscriberStats[];
}

type Observer<E> = (event: E) => void;

const DEFAULT_PRE_START_CAPACITY = 1_000;
const DEFAULT_CAPACITY = 100;
const DEFAULT_BATCH_SIZE = 1_024;

/** See the module comment. Construct one per controller iteration; it starts no timers. */
export class EventBus<E extends BusEvent> {
  private readonly preStart: RingQueue<E>;
  private readonly defaultCapacity: number;
  private readonly batchSize: number;
  private readonly logger: BusLogger | undefined;
  private onDrop: ((info: DropInfo) => void) | undefined;
  // Copy-on-write arrays: publish iterates a snapshot, so (un)subscribing mid-publish is safe.
  private readonly byType = new Map<string, Subscription<E>[]>();
  private allTypes: Subscription<E>[] = [];
  private readonly observersByType = new Map<string, Observer<E>[]>();
  private allObservers: Observer<E>[] = [];
  private observerCount = 0;
  private readonly subscriptions = new Set<Subscription<E>>();
  private readonly capacities = new WeakMap<Subscription<E>, number>();
  private isRunning = false;
  private hasEverStarted = false;
  private startCount = 0;
  private publishedCount = 0;
  private preStartDroppedCount = 0;
  private droppedCriticalCount = 0;
  private droppedLossyCount = 0;
  private readonly hooks: SubscriptionHooks<E>;

  constructor(options: EventBusOptions = {}) {
    const preStartCapacity = options.preStartCapacity ?? DEFAULT_PRE_START_CAPACITY;
    this.defaultCapacity = options.defaultCapacity ?? DEFAULT_CAPACITY;
    this.batchSize = options.batchSize ?? DEFAULT_BATCH_SIZE;
    for (const [what, n] of [
      ['preStartCapacity', preStartCapacity],
      ['defaultCapacity', this.defaultCapacity],
      ['batchSize', this.batchSize],
    ] as const) {
      if (!Number.isInteger(n) || n < 1) {
        throw new InvalidArgumentError(`event bus ${what} must be a positive integer, got ${n}`);
      }
    }
    this.preStart = new RingQueue<E>(preStartCapacity, 64);
    this.logger = options.logger;
    this.onDrop = options.onDrop;
    this.hooks = {
      onDrop: (sub, event) => {
        this.recordDrop(sub, event);
      },
      onHandlerError: (sub, event, err) => {
        this.logger?.error(
          { err, subscriber: sub.name, eventType: event.type },
          'event handler failed',
        );
      },
      onClose: (sub) => {
        this.detach(sub);
      },
    };
  }

  /** True between `start()` and the next `pause()`. */
  get isStarted(): boolean {
    return this.isRunning;
  }

  /** Number of live subscriptions (observers not included). */
  get subscriberCount(): number {
    return this.subscriptions.size;
  }

  /** Replaces the drop callback for critical subscribers. */
  setDropCallback(fn: ((info: DropInfo) => void) | undefined): void {
    this.onDrop = fn;
  }

  /**
   * Publishes `event`: buffers it before `start()`, otherwise appends it to every matching
   * subscriber's queue. Never blocks, never runs a subscriber's handler inline (observers
   * registered with `observe` do run inline). Returns the number of subscriber queues that
   * accepted it (0 while buffering).
   */
  publish(event: E): number {
    this.publishedCount++;
    if (!this.isRunning) {
      if (!this.preStart.push(event)) this.recordPreStartOverflow(event);
      return 0;
    }
    return this.deliver(event);
  }

  /**
   * Starts delivery, replaying buffered events in publish order. Idempotent. An observer that
   * calls `pause()` during the replay stops it; the rest stays buffered for the next start.
   */
  start(): void {
    if (this.isRunning) return;
    this.isRunning = true;
    this.hasEverStarted = true;
    const term = ++this.startCount;
    // `pause()` from an observer during the replay bumps startCount and ends this loop.
    while (term === this.startCount && this.preStart.length > 0) {
      this.deliver(this.preStart.shift() as E);
    }
  }

  /**
   * Re-enters buffering: events published from now on wait for the next `start()`. Used around
   * leadership transitions so leader-only components that subscribe in their `start()` still
   * see what the all-replica components publish meanwhile.
   */
  pause(): void {
    if (!this.isRunning) return;
    this.isRunning = false;
    this.startCount++;
  }

  /** Same as `start()`: ends a `pause()`, replaying what was buffered meanwhile. */
  resume(): void {
    this.start();
  }

  /**
   * Subscribes a handler with its own bounded queue and dispatch loop. Subscribing after
   * `start()` logs a warning unless `isLeaderOnly` (late subscribers miss earlier events).
   */
  subscribe<T extends E['type']>(options: SubscribeOptions<E, T>): Subscription<E> {
    const types: readonly string[] = options.types ?? [];
    const capacity = options.capacity ?? this.defaultCapacity;
    if (options.queue === undefined && (!Number.isInteger(capacity) || capacity < 1)) {
      throw new InvalidArgumentError(
        `subscriber ${options.name}: capacity must be a positive integer`,
      );
    }
    if (this.hasEverStarted && options.isLeaderOnly !== true) {
      this.logger?.warn(
        { subscriber: options.name },
        'subscribed after bus start; earlier events were missed',
      );
    }
    const userOnError = options.onError;
    const hooks: SubscriptionHooks<E> =
      userOnError === undefined
        ? this.hooks
        : {
            ...this.hooks,
            onHandlerError: (_sub, event, err) => {
              userOnError(err, event as EventOfType<E, T>);
            },
          };
    // The handler and queue only ever see events of types T: the bus filters on `types`.
    const subscription = new Subscription<E>(
      {
        name: options.name,
        types,
        isLossy: options.isLossy === true,
        handler: options.handler as EventHandler<E>,
        queue: (options.queue as SubscriberQueue<E> | undefined) ?? boundedQueue<E>(capacity),
        isPaused: options.isPaused === true,
        batchSize: this.batchSize,
      },
      hooks,
    );
    this.capacities.set(subscription, options.queue === undefined ? capacity : Infinity);
    this.subscriptions.add(subscription);
    if (types.length === 0) this.allTypes = [...this.allTypes, subscription];
    for (const type of new Set(types)) {
      this.byType.set(type, [...(this.byType.get(type) ?? []), subscription]);
    }
    return subscription;
  }

  /**
   * Registers a synchronous observer called inline from `publish` (after buffering, i.e. when
   * the event is delivered). Observers must be O(1) and must not throw; they exist for
   * scatter-gather collectors and leadership gating, where a queue hop would reorder things.
   * Returns the function that removes the observer.
   */
  observe(name: string, types: readonly string[], fn: (event: E) => void): () => void {
    const observer: Observer<E> = (event) => {
      try {
        fn(event);
      } catch (err) {
        this.logger?.error({ err, observer: name, eventType: event.type }, 'observer failed');
      }
    };
    if (types.length === 0) this.allObservers = [...this.allObservers, observer];
    for (const type of new Set(types)) {
      this.observersByType.set(type, [...(this.observersByType.get(type) ?? []), observer]);
    }
    this.observerCount++;
    let isRemoved = false;
    return () => {
      if (isRemoved) return;
      isRemoved = true;
      this.observerCount--;
      this.allObservers = this.allObservers.filter((o) => o !== observer);
      for (const type of new Set(types)) {
        const next = (this.observersByType.get(type) ?? []).filter((o) => o !== observer);
        if (next.length === 0) this.observersByType.delete(type);
        else this.observersByType.set(type, next);
      }
    };
  }

  /** Scatter-gather: see {@link scatterGather}. */
  request<R extends E & ResponseEvent>(
    request: E & RequestEvent,
    options: RequestOptions,
  ): Promise<RequestResult<R>> {
    return scatterGather<E, R>(this, request, options);
  }

  /** Counters for metrics and debug output. */
  stats(): BusStats {
    return {
      published: this.publishedCount,
      preStartBuffered: this.preStart.length,
      preStartDropped: this.preStartDroppedCount,
      droppedCritical: this.droppedCriticalCount,
      droppedLossy: this.droppedLossyCount,
      subscribers: [...this.subscriptions].map((s) => s.stats()),
    };
  }

  /** Resolves when every subscription is idle (nothing queued and no handler running). */
  async whenIdle(): Promise<void> {
    for (;;) {
      await Promise.all([...this.subscriptions].map((s) => s.whenIdle()));
      if ([...this.subscriptions].every((s) => s.isIdle)) return;
    }
  }

  private deliver(event: E): number {
    let accepted = 0;
    const typed = this.byType.get(event.type);
    if (typed !== undefined) {
      for (const sub of typed) if (sub.offer(event)) accepted++;
    }
    for (const sub of this.allTypes) if (sub.offer(event)) accepted++;
    if (this.observerCount > 0) {
      const observers = this.observersByType.get(event.type);
      if (observers !== undefined) for (const observer of observers) observer(event);
      for (const observer of this.allObservers) observer(event);
    }
    return accepted;
  }

  private recordDrop(sub: Subscription<E>, event: E): void {
    if (sub.isLossy) {
      this.droppedLossyCount++;
      return;
    }
    this.droppedCriticalCount++;
    this.onDrop?.({
      eventType: event.type,
      subscriberName: sub.name,
      capacity: this.capacities.get(sub) ?? 0,
      subscriberTypes: sub.types,
    });
  }

  private recordPreStartOverflow(event: E): void {
    this.preStartDroppedCount++;
    const n = this.preStartDroppedCount;
    // Warn on the first overflow and then at powers of two, not once per event.
    if ((n & (n - 1)) === 0) {
      this.logger?.warn(
        { eventType: event.type, dropped: n, capacity: this.preStart.maxLength },
        'pre-start buffer full; event dropped',
      );
    }
  }

  private detach(sub: Subscription<E>): void {
    if (!this.subscriptions.delete(sub)) return;
    if (sub.types.length === 0) this.allTypes = this.allTypes.filter((s) => s !== sub);
    for (const type of new Set(sub.types)) {
      const next = (this.byType.get(type) ?? []).filter((s) => s !== sub);
      if (next.length === 0) this.byType.delete(type);
      else this.byType.set(type, next);
    }
  }
}

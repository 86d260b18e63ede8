/**
 * One subscriber of the bus: its own bounded queue and its own asynchronous dispatch loop, so a
 * slow subscriber only ever delays (or drops) its own events. The loop calls the handler one
 * event at a time, awaits it when it returns a promise, and yields to the macrotask queue every
 * `batchSize` events so timers and I/O keep running while a backlog drains.
 */
import { RingQueue } from './ring-queue.js';
import type { BusEvent } from './bus-event.js';

/**
 * The queue a subscription dispatches from. The default is a bounded {@link RingQueue}; the
 * component base supplies a coalescing mailbox instead.
 */
export interface SubscriberQueue<E> {
  /** Enqueues `event`; false means the event was dropped for this subscriber. */
  offer(event: E): boolean;
  /** Removes and returns the next event to dispatch, or undefined when empty. */
  poll(): E | undefined;
  /** Number of events waiting. */
  readonly length: number;
  /** Discards every waiting event. */
  clear(): void;
}

/** Handler of a subscription; a returned promise is awaited before the next event. */
export type EventHandler<E> = (event: E) => void | Promise<void>;

/** Counters of one subscription, for metrics and debug output. */
export interface SubscriberStats {
  readonly name: string;
  readonly types: readonly string[];
  readonly isLossy: boolean;
  readonly depth: number;
  readonly delivered: number;
  readonly dropped: number;
  readonly failed: number;
}

/** What the bus hands a subscription so it can report back without importing the bus. */
export interface SubscriptionHooks<E extends BusEvent> {
  onDrop(subscription: Subscription<E>, event: E): void;
  onHandlerError(subscription: Subscription<E>, event: E, err: unknown): void;
  onClose(subscription: Subscription<E>): void;
}

/** Options fixed when a subscription is created. */
export interface SubscriptionConfig<E> {
  readonly name: string;
  readonly types: readonly string[];
  readonly isLossy: boolean;
  readonly handler: EventHandler<E>;
  readonly queue: SubscriberQueue<E>;
  readonly isPaused: boolean;
  readonly batchSize: number;
}

/** Wraps a RingQueue as a {@link SubscriberQueue} that drops beyond `capacity`. */
export function boundedQueue<E>(capacity: number): SubscriberQueue<E> {
  const ring = new RingQueue<E>(capacity, Math.min(capacity, 64));
  return {
    offer: (event) => ring.push(event),
    poll: () => ring.shift(),
    get length() {
      return ring.length;
    },
    clear: () => {
      ring.clear();
    },
  };
}

const yieldToMacrotasks = (): Promise<void> =>
  new Promise((resolve) => {
    setImmediate(resolve);
  });

/** A live subscription; obtained from `EventBus.subscribe`, never constructed by callers. */
export class Subscription<E extends BusEvent = BusEvent> {
  /** Subscriber name, used in logs, drop reports and metrics labels. */
  readonly name: string;
  /** Event types delivered; empty means every type. */
  readonly types: readonly string[];
  /** Lossy (observability) subscribers' drops are counted apart and fire no drop callback. */
  readonly isLossy: boolean;
  private readonly handler: EventHandler<E>;
  private readonly queue: SubscriberQueue<E>;
  private readonly batchSize: number;
  private readonly hooks: SubscriptionHooks<E>;
  private isHeld: boolean;
  private isClosed = false;
  private isScheduled = false;
  private idleWaiters: (() => void)[] = [];
  private deliveredCount = 0;
  private droppedCount = 0;
  private failedCount = 0;

  /** @internal called by the bus. */
  constructor(config: SubscriptionConfig<E>, hooks: SubscriptionHooks<E>) {
    this.name = config.name;
    this.types = config.types;
    this.isLossy = config.isLossy;
    this.handler = config.handler;
    this.queue = config.queue;
    this.isHeld = config.isPaused;
    this.batchSize = config.batchSize;
    this.hooks = hooks;
  }

  /** Events waiting in this subscriber's queue. */
  get depth(): number {
    return this.queue.length;
  }

  /** False once unsubscribed. */
  get isActive(): boolean {
    return !this.isClosed;
  }

  /** Snapshot of this subscription's counters. */
  stats(): SubscriberStats {
    return {
      name: this.name,
      types: this.types,
      isLossy: this.isLossy,
      depth: this.queue.length,
      delivered: this.deliveredCount,
      dropped: this.droppedCount,
      failed: this.failedCount,
    };
  }

  /**
   * @internal Enqueues an event published on the bus; O(1), never runs the handler inline.
   * Returns false when the event was dropped for this subscriber.
   */
  offer(event: E): boolean {
    if (this.isClosed) return false;
    if (!this.queue.offer(event)) {
      this.droppedCount++;
      this.hooks.onDrop(this, event);
      return false;
    }
    this.schedule();
    return true;
  }

  /** Holds dispatch: events keep queueing (and dropping when full) but no handler runs. */
  pause(): void {
    this.isHeld = true;
  }

  /** Resumes dispatch after {@link pause} or a subscription created paused. */
  resume(): void {
    if (this.isClosed) return;
    this.isHeld = false;
    this.schedule();
  }

  /** Discards queued events (for example the stale backlog of a previous leadership term). */
  discardQueued(): void {
    this.queue.clear();
  }

  /** Stops delivery for good and drops the queue; idempotent. An in-flight handler finishes. */
  unsubscribe(): void {
    if (this.isClosed) return;
    this.isClosed = true;
    this.queue.clear();
    this.hooks.onClose(this);
    if (!this.isScheduled) this.notifyIdle();
  }

  /**
   * Resolves once no handler is running and nothing dispatchable is queued (queue empty,
   * dispatch held, or unsubscribed). Used for orderly stops and by tests.
   */
  whenIdle(): Promise<void> {
    if (this.isIdle) return Promise.resolve();
    return new Promise((resolve) => this.idleWaiters.push(resolve));
  }

  /** True when no handler runs and nothing dispatchable is queued; see {@link whenIdle}. */
  get isIdle(): boolean {
    return !this.isScheduled && (this.isClosed || this.isHeld || this.queue.length === 0);
  }

  private schedule(): void {
    if (this.isScheduled || this.isHeld || this.isClosed) return;
    this.isScheduled = true;
    // A microtask, not an inline call: publish() must never run a handler (re-entrancy).
    queueMicrotask(() => void this.run());
  }

  private async run(): Promise<void> {
    let budget = this.batchSize;
    try {
      for (;;) {
        if (this.isHeld || this.isClosed) break;
        const event = this.queue.poll();
        if (event === undefined) break;
        try {
          const result = this.handler(event);
          if (result !== undefined) await result;
        } catch (err) {
          this.failedCount++;
          this.reportError(event, err);
        }
        this.deliveredCount++;
        if (--budget === 0) {
          budget = this.batchSize;
          await yieldToMacrotasks();
        }
      }
    } finally {
      this.isScheduled = false;
    }
    // An event may have arrived during the last await after the loop decided to stop.
    if (!this.isHeld && !this.isClosed && this.queue.length > 0) this.schedule();
    else this.notifyIdle();
  }

  private reportError(event: E, err: unknown): void {
    try {
      this.hooks.onHandlerError(this, event, err);
    } catch {
      // An error reporter that throws must not stop the dispatch loop either.
    }
  }

  private notifyIdle(): void {
    if (this.idleWaiters.length === 0) return;
    const waiters = this.idleWaiters;
    this.idleWaiters = [];
    for (const resolve of waiters) resolve();
  }
}

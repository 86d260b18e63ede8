/**
 * The event commentator (port of HAPTIC pkg/controller/commentator): the one place routine
 * events are logged. A lossy subscriber to every event (it may drop under load, never slowing
 * the pipeline) that writes one JSON line per event through pino, with a domain message and
 * level (describe-event.ts), and keeps the newest events in a ring buffer searchable by
 * correlation id for `/debug/events`.
 *
 * Never logs secrets: every event is passed through `sanitizeForLog` before it is logged or
 * stored, so the ring buffer (debug output) is as clean as the log.
 */
import type { Logger } from 'pino';

import type { EventBus } from '../../bus/event-bus.js';
import { RingBuffer } from '../../bus/ring-buffer.js';
import type { Subscription } from '../../bus/subscription.js';
import { abortPromise } from '../../core/abort.js';
import { InvalidArgumentError } from '../../core/errors.js';
import type { Component } from '../../component/component.js';
import type { DomainEvent } from '../events/domain-events.js';
import { describeEvent, type CommentLevel } from './describe-event.js';
import { sanitizeForLog, scrubSecrets } from './sanitize-for-log.js';

/** One remembered event, already sanitized. */
export interface CommentatorEntry {
  readonly eventId: string;
  readonly eventType: string;
  readonly timestamp: number;
  readonly correlationId: string;
  readonly causationId?: string;
  readonly level: CommentLevel;
  readonly message: string;
  /** The event's payload, sanitized (no envelope fields). */
  readonly payload: unknown;
  /** Time since the first remembered event of the same correlation chain, when there is one. */
  readonly sinceChainStartMs?: number;
}

/** Commentator dependencies and sizes. */
export interface EventCommentatorDeps {
  readonly bus: EventBus<DomainEvent>;
  readonly logger: Logger;
  /** Events kept for `/debug/events`; default 1,000. */
  readonly historySize?: number;
  /** Subscription queue size before drops; default 1,000. */
  readonly queueCapacity?: number;
}

const COMPONENT_NAME = 'commentator';

/** See the module comment. */
export class EventCommentator implements Component {
  readonly name = COMPONENT_NAME;
  private readonly logger: Logger;
  private readonly history: RingBuffer<CommentatorEntry>;
  /** First timestamp of each recent correlation chain, oldest first (insertion order). */
  private readonly chainStarts = new Map<string, number>();
  private readonly maxChains: number;
  private readonly subscription: Subscription<DomainEvent>;
  private isRunning = false;

  constructor(deps: EventCommentatorDeps) {
    this.logger = deps.logger.child({ component: COMPONENT_NAME });
    this.history = new RingBuffer(deps.historySize ?? 1_000);
    this.maxChains = deps.historySize ?? 1_000;
    this.subscription = deps.bus.subscribe({
      name: COMPONENT_NAME,
      isLossy: true,
      isPaused: true,
      capacity: deps.queueCapacity ?? 1_000,
      handler: (event) => {
        this.comment(event);
      },
    });
  }

  /** Logs events until `signal` aborts. */
  async start(signal: AbortSignal): Promise<void> {
    if (this.isRunning || !this.subscription.isActive) {
      throw new InvalidArgumentError('commentator runs once; create a new one per iteration');
    }
    this.isRunning = true;
    try {
      this.subscription.resume();
      await abortPromise(signal);
      this.subscription.pause();
      await this.subscription.whenIdle();
      this.subscription.unsubscribe();
    } finally {
      this.isRunning = false;
    }
  }

  /** Events dropped because the commentator fell behind. */
  get droppedCount(): number {
    return this.subscription.stats().dropped;
  }

  /** The newest `limit` remembered events, oldest first. */
  recent(limit = Number.POSITIVE_INFINITY): CommentatorEntry[] {
    return this.history.filter(() => true, limit);
  }

  /** Remembered events of one correlation chain (one reconciliation), oldest first. */
  findByCorrelation(correlationId: string, limit = Number.POSITIVE_INFINITY): CommentatorEntry[] {
    return this.history.filter((e) => e.correlationId === correlationId, limit);
  }

  /**
   * Correlation insight ("this deployment finished 234 ms after its trigger"): milliseconds since
   * the chain's first event, undefined for a chain's first event.
   */
  private sinceChainStart(correlationId: string, timestamp: number): number | undefined {
    const start = this.chainStarts.get(correlationId);
    if (start !== undefined) return timestamp - start;
    this.chainStarts.set(correlationId, timestamp);
    if (this.chainStarts.size > this.maxChains) {
      const oldest = this.chainStarts.keys().next();
      if (oldest.done !== true) this.chainStarts.delete(oldest.value);
    }
    return undefined;
  }

  private comment(event: DomainEvent): void {
    const comment = describeEvent(event);
    const { level } = comment;
    // Messages quote event fields (error texts), which may hold pasted key material.
    const message = scrubSecrets(comment.message);
    const { id, timestamp, correlationId, causationId, type, ...payload } = event;
    const sinceChainStartMs = this.sinceChainStart(correlationId, timestamp);
    const entry: CommentatorEntry = {
      eventId: id,
      eventType: type,
      timestamp,
      correlationId,
      ...(causationId === undefined ? {} : { causationId }),
      level,
      message,
      payload: sanitizeForLog(payload),
      ...(sinceChainStartMs === undefined ? {} : { sinceChainStartMs }),
    };
    this.history.push(entry);
    this.logger[level](
      {
        eventType: type,
        eventId: id,
        correlationId,
        ...(causationId === undefined ? {} : { causationId }),
        ...(sinceChainStartMs === undefined ? {} : { sinceChainStartMs }),
        payload: entry.payload,
      },
      message,
    );
  }
}

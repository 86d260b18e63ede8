/**
 * A component's mailbox: an unbounded queue, so the bus never drops an event for this
 * component, kept bounded in practice by latest-wins coalescing of declared types (port of the
 * mailbox mode of HAPTIC's component.Base).
 *
 * Two coalescing strengths exist because real traffic needs both (seed 000, statusapplier):
 * - run coalescing (default): an uninterrupted run of one coalescible type collapses to its
 *   newest event; every other event keeps its place, so `leader.lost` between two
 *   `deployment.completed` stays between them.
 * - across-queue coalescing: only the newest event of each coalescible type survives anywhere
 *   in the queue. Needed when types strictly alternate (rendered, applied, rendered, ...) so
 *   runs never form; without it one statusapplier queue grew to 2,048 full patch sets.
 *
 * Declare a type only when each event carries the complete state for this consumer; a type
 * whose instances carry per-event bookkeeping must not be coalesced.
 */
import type { BusEvent } from '../bus/bus-event.js';
import { RingQueue } from '../bus/ring-queue.js';
import type { SubscriberQueue } from '../bus/subscription.js';

/** Mailbox configuration. */
export interface MailboxOptions<E extends BusEvent> {
  /** Types whose newer event replaces older ones. */
  readonly coalescesOn: readonly string[];
  /** Coalesce across the whole queue instead of within uninterrupted runs. */
  readonly coalescesAcrossQueue?: boolean;
  /**
   * Per-event veto (HAPTIC's `Coalescible()` flag). Default: an event of a declared type
   * coalesces unless it carries `isCoalescible: false` (the catalogue's flag on
   * reconciliation.triggered, template.rendered, deployment.scheduled, ...).
   */
  readonly isCoalescible?: (event: E) => boolean;
  /** Called when the depth reaches a power of two from 256 upwards, once per climb. */
  readonly onDepthWarning?: (depth: number) => void;
}

interface Slot<E> {
  event: E | undefined;
  isLive: boolean;
  readonly isCoalescible: boolean;
}

const FIRST_WARNING_DEPTH = 256;

function carriesNoVeto(event: BusEvent): boolean {
  return (event as { readonly isCoalescible?: unknown }).isCoalescible !== false;
}

/** See the module comment. */
export class CoalescingMailbox<E extends BusEvent> implements SubscriberQueue<E> {
  private readonly ring = new RingQueue<Slot<E>>();
  private readonly types: ReadonlySet<string>;
  private readonly isAcrossQueue: boolean;
  private readonly isCoalescible: (event: E) => boolean;
  private readonly onDepthWarning: ((depth: number) => void) | undefined;
  private readonly newestByType = new Map<string, Slot<E>>();
  private live = 0;
  private dead = 0;
  private lastWarnedDepth = 0;
  private coalescedCount = 0;

  constructor(options: MailboxOptions<E>) {
    this.types = new Set(options.coalescesOn);
    this.isAcrossQueue = options.coalescesAcrossQueue === true;
    this.isCoalescible = options.isCoalescible ?? carriesNoVeto;
    this.onDepthWarning = options.onDepthWarning;
  }

  /** Events waiting (coalesced-away events not counted). */
  get length(): number {
    return this.live;
  }

  /** Events replaced by a newer one since construction. */
  get coalesced(): number {
    return this.coalescedCount;
  }

  /** Always accepts: the mailbox is unbounded. */
  offer(event: E): boolean {
    const isCoalescible = this.types.has(event.type) && this.isCoalescible(event);
    if (isCoalescible) {
      if (this.isAcrossQueue) {
        this.killOlder(event.type);
      } else {
        const tail = this.ring.peekLast();
        if (tail?.isLive === true && tail.isCoalescible && tail.event?.type === event.type) {
          tail.event = event;
          this.coalescedCount++;
          return true;
        }
      }
    }
    const slot: Slot<E> = { event, isLive: true, isCoalescible };
    this.ring.push(slot);
    this.live++;
    if (isCoalescible && this.isAcrossQueue) this.newestByType.set(event.type, slot);
    this.checkDepth();
    return true;
  }

  /** Next live event in arrival order. */
  poll(): E | undefined {
    for (;;) {
      const slot = this.ring.shift();
      if (slot === undefined) return undefined;
      if (!slot.isLive) {
        this.dead--;
        continue;
      }
      this.live--;
      if (this.live === 0) this.lastWarnedDepth = 0;
      const event = slot.event as E;
      if (this.newestByType.get(event.type) === slot) this.newestByType.delete(event.type);
      return event;
    }
  }

  /** Drops everything queued (a new leadership term starts from a clean slate). */
  clear(): void {
    this.ring.clear();
    this.newestByType.clear();
    this.live = 0;
    this.dead = 0;
    this.lastWarnedDepth = 0;
  }

  private killOlder(type: string): void {
    const older = this.newestByType.get(type);
    if (older === undefined) return;
    older.isLive = false;
    older.event = undefined;
    this.live--;
    this.dead++;
    this.coalescedCount++;
    if (this.dead > 1_024 && this.dead > this.live) this.compact();
  }

  /** Rebuilds the ring without tombstones so a stuck handler cannot make it grow forever. */
  private compact(): void {
    const slots = this.ring.toArray().filter((s) => s.isLive);
    this.ring.clear();
    for (const slot of slots) this.ring.push(slot);
    this.dead = 0;
  }

  private checkDepth(): void {
    const depth = this.live;
    if (depth < FIRST_WARNING_DEPTH || depth <= this.lastWarnedDepth) return;
    if ((depth & (depth - 1)) !== 0) return;
    this.lastWarnedDepth = depth;
    this.onDepthWarning?.(depth);
  }
}

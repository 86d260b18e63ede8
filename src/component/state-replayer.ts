/**
 * Remembers the latest state events an all-replica component published and publishes them again
 * when a trigger event arrives: with `trigger: 'leader.became'` it fixes the late-subscriber
 * problem of leader-only components (port of HAPTIC's leadership.StateReplayer). Leader-only
 * components subscribe in `start()`, after the state they need was published; the registry
 * pauses the bus while they start, so the replayed events reach them.
 *
 * The replayed event is the very same frozen object: it states the same fact, with the same
 * ids, so consumers can recognise a replay by id.
 */
import type { BusEvent } from '../bus/bus-event.js';
import type { EventBus } from '../bus/event-bus.js';
import type { Subscription } from '../bus/subscription.js';

/** Replayer construction options. */
export interface StateReplayerOptions<E extends BusEvent> {
  readonly bus: EventBus<E>;
  /** Subscription name, usually `<component>-state-replay`. */
  readonly name: string;
  /** Event type that triggers a replay; use the catalogue's `leader.became`. */
  readonly trigger: E['type'];
  /** Which remembered events replace each other; default one per event type. */
  readonly keyOf?: (event: E) => string;
}

/** See the module comment. Subscribes in its constructor, like the components that own it. */
export class StateReplayer<E extends BusEvent> {
  private readonly bus: EventBus<E>;
  private readonly keyOf: (event: E) => string;
  private readonly latest = new Map<string, E>();
  private readonly subscription: Subscription<E>;
  private replays = 0;

  constructor(options: StateReplayerOptions<E>) {
    this.bus = options.bus;
    this.keyOf = options.keyOf ?? ((event) => event.type);
    this.subscription = options.bus.subscribe({
      name: options.name,
      types: [options.trigger],
      capacity: 4,
      handler: () => {
        this.replay();
      },
    });
  }

  /** Records `event` as the current state for its key; call it next to `bus.publish(event)`. */
  remember(event: E): void {
    // Delete first so re-remembered keys move to the end: replay keeps publish order.
    this.latest.delete(this.keyOf(event));
    this.latest.set(this.keyOf(event), event);
  }

  /** Forgets the state for `key` (for example a pod that went away). */
  forget(key: string): void {
    this.latest.delete(key);
  }

  /** Publishes every remembered event again, oldest first; returns how many. */
  replay(): number {
    for (const event of this.latest.values()) this.bus.publish(event);
    this.replays++;
    return this.latest.size;
  }

  /** Number of replays so far. */
  get replayCount(): number {
    return this.replays;
  }

  /** Stops listening for the trigger. */
  dispose(): void {
    this.subscription.unsubscribe();
  }
}

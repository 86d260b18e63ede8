/**
 * The state replayer bound to the catalogue's leadership event: an all-replica component that
 * holds state (discovered pods, last render, last validation) creates one in its constructor,
 * calls `remember(event)` next to each `publish(event)`, and its state is published again on
 * every `leader.became`, after the new leader's leader-only components have subscribed.
 */
import type { EventBus } from '../../bus/event-bus.js';
import { StateReplayer } from '../../component/state-replayer.js';
import type { DomainEvent, DomainEventType } from './domain-events.js';

const LEADER_BECAME: DomainEventType = 'leader.became';

/**
 * Creates the replayer for `component` (subscription `<component>-state-replay`). `keyOf`
 * decides which remembered events replace each other; default one per event type.
 */
export function leaderStateReplayer(
  bus: EventBus<DomainEvent>,
  component: string,
  keyOf?: (event: DomainEvent) => string,
): StateReplayer<DomainEvent> {
  return new StateReplayer<DomainEvent>({
    bus,
    name: `${component}-state-replay`,
    trigger: LEADER_BECAME,
    ...(keyOf === undefined ? {} : { keyOf }),
  });
}

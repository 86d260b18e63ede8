/**
 * Joins the leader-election events of the catalogue to the lifecycle registry: `leader.became`
 * starts the leader-only components, `leader.lost` stops them.
 *
 * An observer, not a queued subscription: the registry must pause the bus in the same
 * synchronous step that delivers `leader.became`, before any all-replica component reacts to it
 * by replaying its state, so the replayed events wait for the leader-only components.
 */
import type { EventBus } from '../../bus/event-bus.js';
import type { LifecycleRegistry } from '../../component/lifecycle-registry.js';
import type { DomainEvent, DomainEventType } from '../events/domain-events.js';

const BECAME: DomainEventType = 'leader.became';
const LOST: DomainEventType = 'leader.lost';

/** Wires the bridge; returns the function that unwires it. */
export function bindLeadership(
  bus: EventBus<DomainEvent>,
  registry: Pick<LifecycleRegistry, 'leadershipWon' | 'leadershipLost'>,
): () => void {
  return bus.observe('leadership-bridge', [BECAME, LOST], (event) => {
    // The registry serialises transitions and logs their failures itself.
    if (event.type === BECAME) void registry.leadershipWon();
    else void registry.leadershipLost();
  });
}

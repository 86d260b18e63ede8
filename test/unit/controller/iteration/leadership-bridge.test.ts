import assert from 'node:assert/strict';
import { describe, it } from 'node:test';

import { EventBus } from '../../../../src/bus/event-bus.js';
import {
  EventComponent,
  type EventComponentDeps,
} from '../../../../src/component/event-component.js';
import { LifecycleRegistry } from '../../../../src/component/lifecycle-registry.js';
import { createEvent } from '../../../../src/controller/events/create-event.js';
import type {
  DomainEvent,
  DomainEventOf,
} from '../../../../src/controller/events/domain-events.js';
import { leaderStateReplayer } from '../../../../src/controller/events/leader-state-replayer.js';
import { bindLeadership } from '../../../../src/controller/iteration/leadership-bridge.js';
import { FakeLogSink } from '../../component/fake-log-sink.js';

/** All-replica discovery: publishes the pod set and remembers it for the next leader. */
class FakeDiscovery extends EventComponent<DomainEvent, 'resource.index.updated'> {
  private readonly replayer;
  constructor(deps: EventComponentDeps<DomainEvent>) {
    super(deps, { name: 'discovery', types: ['resource.index.updated'] });
    this.replayer = leaderStateReplayer(deps.bus, 'discovery');
  }
  protected override handleEvent(event: DomainEventOf<'resource.index.updated'>): void {
    const pods = createEvent(
      'haproxy.pods.discovered',
      {
        endpoints: [
          { podName: `pod-${event.changeStats.created}`, podNamespace: 'ns', address: 'a' },
        ],
        isCoalescible: true,
      },
      { cause: event },
    );
    this.bus.publish(pods);
    this.replayer.remember(pods);
  }
  protected override onStop(): void {
    this.replayer.dispose();
  }
}

/** Leader-only deployer: subscribes in start(), records the pod sets it learns about. */
class FakeDeployer extends EventComponent<DomainEvent, 'haproxy.pods.discovered'> {
  readonly seen: string[] = [];
  constructor(deps: EventComponentDeps<DomainEvent>) {
    super(deps, { name: 'deployer', types: ['haproxy.pods.discovered'], isLeaderOnly: true });
  }
  protected override handleEvent(event: DomainEventOf<'haproxy.pods.discovered'>): void {
    this.seen.push(event.endpoints.map((e) => e.podName).join(','));
  }
}

const settle = (): Promise<void> => new Promise((resolve) => setImmediate(resolve));

describe('bindLeadership', () => {
  it('gives a leader-only component that subscribes late the state published before it led', async () => {
    const sink = new FakeLogSink();
    const bus = new EventBus<DomainEvent>({ logger: sink.logger });
    const registry = new LifecycleRegistry({ logger: sink.logger, bus });
    const deps = { bus, logger: sink.logger };
    const deployer = new FakeDeployer(deps);
    registry.register(new FakeDiscovery(deps)).register(deployer);
    const unbind = bindLeadership(bus, registry);
    const stop = new AbortController();
    await registry.startAll(stop.signal);
    bus.start();

    bus.publish(
      createEvent('resource.index.updated', {
        resourceType: 'pods',
        changeStats: { created: 3, modified: 0, deleted: 0 },
        isInitialSync: true,
      }),
    );
    await bus.whenIdle();
    assert.deepEqual(deployer.seen, [], 'a follower runs no deployer');

    bus.publish(createEvent('leader.became', { identity: 'me', epoch: 1 }));
    await settle();
    await bus.whenIdle();
    assert.deepEqual(deployer.seen, ['pod-3'], 'the pod set was replayed to the new leader');

    bus.publish(createEvent('leader.lost', { identity: 'me', reason: 'test' }));
    await settle();
    await bus.whenIdle();
    assert.equal(registry.isLeader, false);
    assert.equal(registry.status().find((s) => s.name === 'deployer')?.state, 'stopped');

    unbind();
    await registry.stopAll();
  });
});

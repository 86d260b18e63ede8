import assert from 'node:assert/strict';
import { describe, it } from 'node:test';

import type { EventOfType } from '../../../src/bus/bus-event.js';
import { EventBus } from '../../../src/bus/event-bus.js';
import type { Component, HealthReport } from '../../../src/component/component.js';
import {
  ComponentFailedError,
  DependencyCycleError,
  InvalidDependencyError,
} from '../../../src/component/errors.js';
import { EventComponent, type EventComponentDeps } from '../../../src/component/event-component.js';
import { LifecycleRegistry } from '../../../src/component/lifecycle-registry.js';
import { StateReplayer } from '../../../src/component/state-replayer.js';
import { FakeLogSink } from './fake-log-sink.js';

type Ev =
  | { readonly type: 'leader.became' }
  | { readonly type: 'leader.lost' }
  | { readonly type: 'haproxy.pods.discovered'; readonly pods: readonly string[] }
  | { readonly type: 'deployment.completed'; readonly n: number };

/** A plain component recording its lifecycle into a shared journal. */
class FakeComponent implements Component {
  isHealthy = true;
  failWith: Error | undefined;
  private resolveReady: () => void = () => undefined;
  private readonly ready: Promise<void>;

  constructor(
    readonly name: string,
    private readonly journal: string[],
    private readonly isReadyAtOnce = true,
  ) {
    this.ready = new Promise((resolve) => {
      this.resolveReady = resolve;
    });
    if (isReadyAtOnce) this.resolveReady();
  }

  markReady(): void {
    this.resolveReady();
  }

  async start(signal: AbortSignal): Promise<void> {
    this.journal.push(`start ${this.name}`);
    if (this.failWith !== undefined) throw this.failWith;
    await new Promise((resolve) => {
      signal.addEventListener('abort', resolve, { once: true });
    });
    this.journal.push(`stop ${this.name}`);
  }

  async whenReady(): Promise<void> {
    await this.ready;
    this.journal.push(`ready ${this.name}`);
  }

  healthCheck(): HealthReport {
    return this.isHealthy ? { isHealthy: true } : { isHealthy: false, reason: 'stalled' };
  }
}

/** A leader-only event component that subscribes in start() and records what it sees. */
class FakeLeaderOnlyComponent extends EventComponent<Ev> {
  readonly seen: string[] = [];
  constructor(deps: EventComponentDeps<Ev>) {
    super(deps, { name: 'deployer', isLeaderOnly: true, types: ['haproxy.pods.discovered'] });
  }
  protected override handleEvent(event: EventOfType<Ev, Ev['type']>): void {
    if (event.type === 'haproxy.pods.discovered') this.seen.push(event.pods.join(','));
  }
}

function newRegistry(bus?: EventBus<Ev>): { registry: LifecycleRegistry; sink: FakeLogSink } {
  const sink = new FakeLogSink();
  const registry = new LifecycleRegistry({
    logger: sink.logger,
    ...(bus === undefined ? {} : { bus }),
  });
  return { registry, sink };
}

const settle = (): Promise<void> => new Promise((resolve) => setImmediate(resolve));

describe('LifecycleRegistry', () => {
  it('rejects a dependency cycle before starting anything, naming the cycle', async () => {
    const journal: string[] = [];
    const { registry } = newRegistry();
    registry
      .register(new FakeComponent('a', journal), { dependsOn: ['b'] })
      .register(new FakeComponent('b', journal), { dependsOn: ['c'] })
      .register(new FakeComponent('c', journal), { dependsOn: ['a'] });
    const err = await registry.startAll(new AbortController().signal).catch((e: unknown) => e);
    assert.ok(err instanceof DependencyCycleError);
    assert.deepEqual(err.cycle, ['a', 'b', 'c', 'a']);
    assert.deepEqual(journal, []);
  });

  it('rejects unknown dependencies and all-replica components depending on leader-only ones', async () => {
    const journal: string[] = [];
    const unknown = newRegistry().registry.register(new FakeComponent('a', journal), {
      dependsOn: ['ghost'],
    });
    await assert.rejects(unknown.startAll(new AbortController().signal), InvalidDependencyError);
    const inverted = newRegistry()
      .registry.register(new FakeComponent('leader', journal), { isLeaderOnly: true })
      .register(new FakeComponent('follower', journal), { dependsOn: ['leader'] });
    await assert.rejects(inverted.startAll(new AbortController().signal), InvalidDependencyError);
  });

  it('starts components in dependency order, each after its dependencies are ready, and stops them in reverse', async () => {
    const journal: string[] = [];
    const { registry } = newRegistry();
    const watcher = new FakeComponent('watcher', journal, false);
    registry
      .register(new FakeComponent('renderer', journal), { dependsOn: ['watcher'] })
      .register(watcher)
      .register(new FakeComponent('commentator', journal));
    const controller = new AbortController();
    const started = registry.startAll(controller.signal);
    await settle();
    assert.deepEqual(journal, ['start watcher']);
    assert.equal(registry.status().find((s) => s.name === 'watcher')?.state, 'starting');
    watcher.markReady();
    await started;
    assert.deepEqual(journal, [
      'start watcher',
      'ready watcher',
      'start renderer',
      'ready renderer',
      'start commentator',
      'ready commentator',
    ]);
    assert.deepEqual(
      registry.status().map((s) => [s.name, s.state]),
      [
        ['watcher', 'running'],
        ['renderer', 'running'],
        ['commentator', 'running'],
      ],
    );
    journal.length = 0;
    await registry.stopAll();
    assert.deepEqual(journal, ['stop commentator', 'stop renderer', 'stop watcher']);
    assert.ok(registry.status().every((s) => s.state === 'stopped'));
  });

  it('starts leader-only components only while leading', async () => {
    const journal: string[] = [];
    const { registry } = newRegistry();
    registry
      .register(new FakeComponent('watcher', journal))
      .register(new FakeComponent('deployer', journal), {
        isLeaderOnly: true,
        dependsOn: ['watcher'],
      });
    await registry.startAll(new AbortController().signal);
    assert.equal(registry.status().find((s) => s.name === 'deployer')?.state, 'pending');
    await registry.leadershipWon();
    assert.equal(registry.isLeader, true);
    assert.equal(registry.status().find((s) => s.name === 'deployer')?.state, 'running');
    await registry.leadershipLost();
    assert.equal(registry.status().find((s) => s.name === 'deployer')?.state, 'stopped');
    assert.deepEqual(journal.slice(-3), ['start deployer', 'ready deployer', 'stop deployer']);
    await registry.stopAll();
  });

  it('a leader-only component started and stopped three times leaks no subscription', async () => {
    const sink = new FakeLogSink();
    const bus = new EventBus<Ev>({ logger: sink.logger });
    const { registry } = newRegistry(bus);
    const deployer = new FakeLeaderOnlyComponent({ bus, logger: sink.logger });
    registry.register(deployer);
    await registry.startAll(new AbortController().signal);
    bus.start();
    const before = bus.subscriberCount;
    for (let term = 1; term <= 3; term++) {
      await registry.leadershipWon();
      assert.equal(bus.subscriberCount, before + 1, `term ${term}: subscribed while leading`);
      bus.publish({ type: 'haproxy.pods.discovered', pods: [`term-${term}`] });
      await bus.whenIdle();
      await registry.leadershipLost();
      assert.equal(bus.subscriberCount, before, `term ${term}: unsubscribed after losing`);
    }
    assert.deepEqual(deployer.seen, ['term-1', 'term-2', 'term-3']);
    assert.equal(sink.withMessage('subscribed after bus start').length, 0);
    await registry.stopAll();
  });

  it('delivers state replayed on leader.became to leader-only components that subscribe late', async () => {
    const sink = new FakeLogSink();
    const bus = new EventBus<Ev>({ logger: sink.logger });
    const { registry } = newRegistry(bus);
    const replayer = new StateReplayer<Ev>({
      bus,
      name: 'discovery-state-replay',
      trigger: 'leader.became',
    });
    const deployer = new FakeLeaderOnlyComponent({ bus, logger: sink.logger });
    registry.register(deployer);
    // The bridge the controller wires: leadership events drive the registry synchronously.
    bus.observe('leadership', ['leader.became'], () => void registry.leadershipWon());
    await registry.startAll(new AbortController().signal);
    bus.start();
    const pods: Ev = { type: 'haproxy.pods.discovered', pods: ['pod-a', 'pod-b'] };
    bus.publish(pods);
    replayer.remember(pods);
    await bus.whenIdle();
    assert.deepEqual(deployer.seen, [], 'not leading yet: the deployer is not subscribed');
    bus.publish({ type: 'leader.became' });
    await settle();
    await bus.whenIdle();
    assert.equal(registry.isLeader, true);
    assert.deepEqual(deployer.seen, ['pod-a,pod-b']);
    assert.equal(replayer.replayCount, 1);
    await registry.stopAll();
    replayer.dispose();
  });

  it('reports a failing critical component through whenCriticalFailure and the health check', async () => {
    const journal: string[] = [];
    const { registry } = newRegistry();
    const broken = new FakeComponent('broken', journal, false);
    broken.failWith = new Error('cannot bind');
    registry.register(broken);
    await assert.rejects(registry.startAll(new AbortController().signal), ComponentFailedError);
    const failure = await registry.whenCriticalFailure();
    assert.equal(failure.component, 'broken');
    assert.equal(registry.status()[0]?.state, 'failed');
    assert.match(registry.status()[0]?.error ?? '', /cannot bind/);
    assert.equal(registry.isHealthy(), false);
  });

  it('stays healthy when a degradable component fails but not when a critical one stalls', async () => {
    const journal: string[] = [];
    const { registry } = newRegistry();
    const metricsAdapter = new FakeComponent('metrics', journal);
    metricsAdapter.failWith = new Error('nope');
    const renderer = new FakeComponent('renderer', journal);
    registry.register(metricsAdapter, { criticality: 'degradable' }).register(renderer);
    await registry.startAll(new AbortController().signal);
    assert.equal(registry.isHealthy(), true);
    renderer.isHealthy = false;
    assert.equal(registry.isHealthy(), false);
    assert.equal(registry.status().find((s) => s.name === 'renderer')?.health.reason, 'stalled');
    await registry.stopAll();
  });
});

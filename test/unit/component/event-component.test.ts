import assert from 'node:assert/strict';
import { describe, it } from 'node:test';

import { Registry } from 'prom-client';

import type { EventOfType } from '../../../src/bus/bus-event.js';
import { EventBus } from '../../../src/bus/event-bus.js';
import {
  EventComponent,
  type EventComponentDeps,
  type EventComponentOptions,
} from '../../../src/component/event-component.js';
import { CoalescingMailbox } from '../../../src/component/mailbox.js';
import { FakeClock } from './fake-clock.js';
import { FakeLogSink } from './fake-log-sink.js';

type Ev =
  | { readonly type: 'deployment.completed'; readonly n: number }
  | { readonly type: 'leader.lost'; readonly n: number }
  | { readonly type: 'template.rendered'; readonly n: number }
  | { readonly type: 'resources.applied'; readonly n: number };

/** Records what it handles; `gate` blocks every handler until released. */
class RecordingComponent extends EventComponent<Ev> {
  readonly seen: string[] = [];
  gate: Promise<void> | undefined;
  failOn: ((e: Ev) => boolean) | undefined;

  constructor(
    deps: EventComponentDeps<Ev>,
    options: Partial<EventComponentOptions<Ev['type']>> = {},
  ) {
    super(deps, { name: 'recorder', ...options });
  }

  protected override async handleEvent(event: EventOfType<Ev, Ev['type']>): Promise<void> {
    this.seen.push(`${event.type}#${event.n}`);
    if (this.gate !== undefined) await this.gate;
    if (this.failOn?.(event) === true) throw new Error(`boom ${event.n}`);
  }
}

function setup(options: Partial<EventComponentOptions<Ev['type']>> = {}): {
  bus: EventBus<Ev>;
  sink: FakeLogSink;
  clock: FakeClock;
  metrics: Registry;
  component: RecordingComponent;
} {
  const sink = new FakeLogSink();
  const clock = new FakeClock();
  const metrics = new Registry();
  const bus = new EventBus<Ev>({ logger: sink.logger });
  const component = new RecordingComponent({ bus, logger: sink.logger, clock, metrics }, options);
  return { bus, sink, clock, metrics, component };
}

/** Starts `component`, returning a stop function that resolves when it has stopped. */
function run(component: RecordingComponent): () => Promise<void> {
  const controller = new AbortController();
  const done = component.start(controller.signal);
  return async () => {
    controller.abort();
    await done;
  };
}

describe('EventComponent', () => {
  it('receives events published before it started because it subscribes in its constructor', async () => {
    const { bus, component } = setup();
    bus.publish({ type: 'deployment.completed', n: 1 });
    bus.start();
    await bus.whenIdle();
    assert.deepEqual(component.seen, [], 'nothing is dispatched before start()');
    const stop = run(component);
    await bus.whenIdle();
    assert.deepEqual(component.seen, ['deployment.completed#1']);
    await stop();
  });

  it('collapses 1,000 queued deployment.completed events to the newest of each run while a leader.lost between them keeps its place', async () => {
    const { bus, component } = setup({ mailbox: { coalescesOn: ['deployment.completed'] } });
    bus.start();
    for (let n = 1; n <= 500; n++) bus.publish({ type: 'deployment.completed', n });
    bus.publish({ type: 'leader.lost', n: 0 });
    for (let n = 501; n <= 1000; n++) bus.publish({ type: 'deployment.completed', n });
    assert.equal(component.mailboxDepth, 3);
    const stop = run(component);
    await bus.whenIdle();
    assert.deepEqual(component.seen, [
      'deployment.completed#500',
      'leader.lost#0',
      'deployment.completed#1000',
    ]);
    assert.equal(component.coalescedCount, 998);
    await stop();
  });

  it('coalesces across the whole queue when asked, keeping only the newest of each declared type', async () => {
    const { bus, component } = setup({
      mailbox: {
        coalescesOn: ['template.rendered', 'resources.applied', 'deployment.completed'],
        coalescesAcrossQueue: true,
      },
    });
    bus.start();
    // Strictly alternating types never form runs: only across-queue coalescing bounds this.
    for (let n = 1; n <= 300; n++) {
      bus.publish({ type: 'template.rendered', n });
      bus.publish({ type: 'resources.applied', n });
      if (n === 150) bus.publish({ type: 'leader.lost', n });
    }
    bus.publish({ type: 'deployment.completed', n: 1 });
    assert.equal(component.mailboxDepth, 4);
    const stop = run(component);
    await bus.whenIdle();
    assert.deepEqual(component.seen, [
      'leader.lost#150',
      'template.rendered#300',
      'resources.applied#300',
      'deployment.completed#1',
    ]);
    await stop();
  });

  it('does not coalesce undeclared types and never drops in mailbox mode', async () => {
    const { bus, component } = setup({ mailbox: { coalescesOn: ['template.rendered'] } });
    bus.start();
    for (let n = 1; n <= 300; n++) bus.publish({ type: 'deployment.completed', n });
    assert.equal(component.mailboxDepth, 300);
    const stop = run(component);
    await bus.whenIdle();
    assert.equal(component.seen.length, 300);
    assert.equal(bus.stats().droppedCritical, 0);
    await stop();
  });

  it('warns each time the mailbox reaches a power of two from 256', async () => {
    const { bus, sink, component } = setup({ mailbox: { coalescesOn: ['template.rendered'] } });
    bus.start();
    for (let n = 1; n <= 1100; n++) bus.publish({ type: 'deployment.completed', n });
    await bus.whenIdle();
    assert.deepEqual(
      sink.withMessage('mailbox is growing').map((l) => l['depth']),
      [256, 512, 1024],
    );
    const stop = run(component);
    await bus.whenIdle();
    for (let n = 1; n <= 256; n++) bus.publish({ type: 'deployment.completed', n });
    assert.deepEqual(
      sink.withMessage('mailbox is growing').map((l) => l['depth']),
      [256, 512, 1024, 256],
      'after draining, passing 256 again warns again',
    );
    await stop();
  });

  it('a handler that throws on every event does not stop the next ones; each failure is logged and counted', async () => {
    const { bus, sink, component, metrics } = setup();
    component.failOn = () => true;
    bus.start();
    const stop = run(component);
    for (let n = 1; n <= 5; n++) bus.publish({ type: 'deployment.completed', n });
    await bus.whenIdle();
    assert.equal(component.seen.length, 5);
    assert.equal(component.failureCount, 5);
    const errors = sink.withMessage('event handler failed');
    assert.equal(errors.length, 5);
    assert.equal(errors[0]?.['component'], 'recorder');
    const failures = await metrics
      .getSingleMetric('haptic_component_handler_failures_total')
      ?.get();
    assert.equal(failures?.values[0]?.value, 5);
    await stop();
  });

  it('exposes its mailbox depth as a getter and as a gauge labelled by component', async () => {
    const { bus, component, metrics } = setup({ mailbox: { coalescesOn: [] } });
    bus.start();
    const controller = new AbortController();
    let release: () => void = () => undefined;
    component.gate = new Promise((resolve) => {
      release = resolve;
    });
    const done = component.start(controller.signal);
    for (let n = 1; n <= 4; n++) bus.publish({ type: 'deployment.completed', n });
    await new Promise((resolve) => setImmediate(resolve));
    assert.equal(component.mailboxDepth, 3, 'one event is in the handler');
    const text = await metrics.metrics();
    assert.match(text, /haptic_component_mailbox_depth\{component="recorder"\} 3/);
    release();
    controller.abort();
    await done;
  });

  it('fails its health check while one handler runs longer than the stall threshold', async () => {
    const { bus, clock, component } = setup({ stallThresholdMs: 1_000 });
    let release: () => void = () => undefined;
    component.gate = new Promise((resolve) => {
      release = resolve;
    });
    bus.start();
    const stop = run(component);
    bus.publish({ type: 'deployment.completed', n: 1 });
    await new Promise((resolve) => setImmediate(resolve));
    assert.equal(component.healthCheck().isHealthy, true);
    clock.advance(1_001);
    const report = component.healthCheck();
    assert.equal(report.isHealthy, false);
    assert.match(report.reason ?? '', /deployment\.completed/);
    release();
    await bus.whenIdle();
    assert.equal(component.healthCheck().isHealthy, true);
    await stop();
  });

  it('lets the in-flight handler finish on stop and unsubscribes', async () => {
    const { bus, component } = setup();
    let release: () => void = () => undefined;
    component.gate = new Promise((resolve) => {
      release = resolve;
    });
    bus.start();
    const controller = new AbortController();
    let hasStopped = false;
    const done = component.start(controller.signal).then(() => {
      hasStopped = true;
    });
    bus.publish({ type: 'deployment.completed', n: 1 });
    bus.publish({ type: 'deployment.completed', n: 2 });
    await new Promise((resolve) => setImmediate(resolve));
    controller.abort();
    await new Promise((resolve) => setImmediate(resolve));
    assert.equal(hasStopped, false, 'stop waits for the running handler');
    release();
    await done;
    assert.deepEqual(component.seen, ['deployment.completed#1']);
    assert.equal(bus.subscriberCount, 0);
  });
});

describe('CoalescingMailbox', () => {
  it('never coalesces an event that carries isCoalescible: false', () => {
    const mailbox = new CoalescingMailbox<{
      readonly type: 'deployment.scheduled';
      readonly n: number;
      readonly isCoalescible: boolean;
    }>({ coalescesOn: ['deployment.scheduled'] });
    mailbox.offer({ type: 'deployment.scheduled', n: 1, isCoalescible: true });
    mailbox.offer({ type: 'deployment.scheduled', n: 2, isCoalescible: false });
    mailbox.offer({ type: 'deployment.scheduled', n: 3, isCoalescible: true });
    mailbox.offer({ type: 'deployment.scheduled', n: 4, isCoalescible: true });
    const out: number[] = [];
    for (let e = mailbox.poll(); e !== undefined; e = mailbox.poll()) out.push(e.n);
    assert.deepEqual(out, [1, 2, 4]);
  });
});

describe('EventComponent (leader-only)', () => {
  class FakeFailingLeaderOnly extends EventComponent<Ev> {
    protected override handleEvent(): void {
      // never reached
    }
    protected override onStart(): void {
      throw new Error('cannot open lease');
    }
  }

  it('drops its subscription when its start fails, so a failed term leaks nothing', async () => {
    const sink = new FakeLogSink();
    const bus = new EventBus<Ev>({ logger: sink.logger });
    const component = new FakeFailingLeaderOnly(
      { bus, logger: sink.logger },
      { name: 'deployer', isLeaderOnly: true },
    );
    assert.equal(bus.subscriberCount, 0, 'leader-only components do not subscribe when built');
    await assert.rejects(component.start(new AbortController().signal), /cannot open lease/);
    assert.equal(bus.subscriberCount, 0);
  });
});

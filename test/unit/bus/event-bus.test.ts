import assert from 'node:assert/strict';
import { describe, it } from 'node:test';

import type { DropInfo } from '../../../src/bus/event-bus.js';
import { EventBus } from '../../../src/bus/event-bus.js';

type TestEvent =
  | { readonly type: 'a'; readonly n: number }
  | { readonly type: 'b'; readonly n: number }
  | { readonly type: 'c'; readonly n: number };

interface Warning {
  readonly obj: Record<string, unknown>;
  readonly msg: string;
}

/** Records warn/error calls in the shape the bus makes them. */
class FakeLogger {
  readonly warnings: Warning[] = [];
  readonly errors: Warning[] = [];
  warn(obj: Record<string, unknown>, msg: string): void {
    this.warnings.push({ obj, msg });
  }
  error(obj: Record<string, unknown>, msg: string): void {
    this.errors.push({ obj, msg });
  }
}

function newBus(options: ConstructorParameters<typeof EventBus>[0] = {}): {
  bus: EventBus<TestEvent>;
  logger: FakeLogger;
} {
  const logger = new FakeLogger();
  const bus = new EventBus<TestEvent>({ logger: logger as never, ...options });
  return { bus, logger };
}

describe('EventBus', () => {
  it('events published before start() arrive in publish order after it', async () => {
    const { bus } = newBus();
    const seen: string[] = [];
    bus.subscribe({
      name: 'recorder',
      capacity: 100,
      handler: (e) => {
        seen.push(`${e.type}${e.n}`);
      },
    });
    bus.publish({ type: 'a', n: 1 });
    bus.publish({ type: 'b', n: 2 });
    bus.publish({ type: 'a', n: 3 });
    await Promise.resolve();
    assert.deepEqual(seen, [], 'nothing is delivered before start()');
    bus.start();
    await bus.whenIdle();
    assert.deepEqual(seen, ['a1', 'b2', 'a3']);
  });

  it('counts and warns when the pre-start buffer overflows, keeping the oldest events', async () => {
    const { bus, logger } = newBus({ preStartCapacity: 3 });
    const seen: number[] = [];
    bus.subscribe({
      name: 'recorder',
      handler: (e) => {
        seen.push(e.n);
      },
    });
    for (let n = 1; n <= 5; n++) bus.publish({ type: 'a', n });
    assert.equal(bus.stats().preStartDropped, 2);
    assert.equal(logger.warnings.filter((w) => w.msg.includes('pre-start')).length, 2);
    bus.start();
    await bus.whenIdle();
    assert.deepEqual(seen, [1, 2, 3]);
  });

  it("one slow subscriber's overflow drops only its own events and is counted", async () => {
    const drops: DropInfo[] = [];
    const { bus } = newBus({ onDrop: (info) => drops.push(info) });
    let release: () => void = () => undefined;
    const gate = new Promise<void>((resolve) => {
      release = resolve;
    });
    const slowSeen: number[] = [];
    const fastSeen: number[] = [];
    const slow = bus.subscribe({
      name: 'slow',
      capacity: 4,
      handler: async (e) => {
        await gate;
        slowSeen.push(e.n);
      },
    });
    const fast = bus.subscribe({
      name: 'fast',
      capacity: 100,
      handler: (e) => {
        fastSeen.push(e.n);
      },
    });
    bus.start();
    bus.publish({ type: 'a', n: 0 });
    await Promise.resolve(); // the slow handler takes event 0 and blocks on the gate
    await Promise.resolve();
    for (let n = 1; n <= 10; n++) bus.publish({ type: 'a', n });
    release();
    await bus.whenIdle();
    assert.deepEqual(fastSeen, [0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10]);
    assert.deepEqual(slowSeen, [0, 1, 2, 3, 4]);
    assert.equal(slow.stats().dropped, 6);
    assert.equal(fast.stats().dropped, 0);
    assert.equal(bus.stats().droppedCritical, 6);
    assert.deepEqual(
      drops.map((d) => [d.subscriberName, d.eventType, d.capacity]),
      Array.from({ length: 6 }, () => ['slow', 'a', 4]),
    );
  });

  it('counts lossy drops apart and fires no drop callback for them', async () => {
    const drops: DropInfo[] = [];
    const { bus } = newBus({ onDrop: (info) => drops.push(info) });
    const lossy = bus.subscribe({
      name: 'commentator',
      capacity: 2,
      isLossy: true,
      handler: () => undefined,
    });
    bus.start();
    for (let n = 0; n < 5; n++) bus.publish({ type: 'a', n });
    await bus.whenIdle();
    assert.equal(lossy.stats().dropped, 3);
    assert.equal(bus.stats().droppedLossy, 3);
    assert.equal(bus.stats().droppedCritical, 0);
    assert.deepEqual(drops, []);
  });

  it('filters typed subscriptions on the bus side', async () => {
    const { bus } = newBus();
    const seen: string[] = [];
    const sub = bus.subscribe({
      name: 'only-b-and-c',
      types: ['b', 'c'],
      capacity: 2,
      handler: (e) => {
        seen.push(e.type);
      },
    });
    bus.start();
    // Ten 'a' events would overflow a capacity-2 queue if they were queued and filtered later.
    for (let n = 0; n < 10; n++) bus.publish({ type: 'a', n });
    bus.publish({ type: 'b', n: 0 });
    bus.publish({ type: 'c', n: 0 });
    await bus.whenIdle();
    assert.deepEqual(seen, ['b', 'c']);
    assert.equal(sub.stats().dropped, 0);
  });

  it('stops delivering after unsubscribe and forgets the subscriber', async () => {
    const { bus } = newBus();
    const seen: number[] = [];
    const sub = bus.subscribe({
      name: 'temp',
      types: ['a'],
      handler: (e) => {
        seen.push(e.n);
      },
    });
    bus.start();
    bus.publish({ type: 'a', n: 1 });
    await bus.whenIdle();
    sub.unsubscribe();
    sub.unsubscribe();
    assert.equal(bus.publish({ type: 'a', n: 2 }), 0);
    await bus.whenIdle();
    assert.deepEqual(seen, [1]);
    assert.equal(bus.subscriberCount, 0);
    assert.equal(sub.isActive, false);
  });

  it('buffers events published while paused and replays them on resume()', async () => {
    const { bus } = newBus();
    const seen: number[] = [];
    bus.subscribe({
      name: 'recorder',
      handler: (e) => {
        seen.push(e.n);
      },
    });
    bus.start();
    bus.publish({ type: 'a', n: 1 });
    bus.pause();
    assert.equal(bus.isStarted, false);
    bus.publish({ type: 'a', n: 2 });
    await bus.whenIdle();
    assert.deepEqual(seen, [1]);
    bus.resume();
    await bus.whenIdle();
    assert.deepEqual(seen, [1, 2]);
  });

  it('keeps dispatching after a handler throws or rejects, counting and logging each failure', async () => {
    const { bus, logger } = newBus();
    const seen: number[] = [];
    const sub = bus.subscribe({
      name: 'flaky',
      handler: async (e) => {
        seen.push(e.n);
        if (e.n === 1) throw new Error('sync-ish failure');
        await Promise.resolve();
        if (e.n === 2) throw new Error('async failure');
      },
    });
    bus.start();
    for (let n = 1; n <= 3; n++) bus.publish({ type: 'a', n });
    await bus.whenIdle();
    assert.deepEqual(seen, [1, 2, 3]);
    assert.equal(sub.stats().failed, 2);
    assert.equal(logger.errors.length, 2);
    assert.equal(logger.errors[0]?.obj['subscriber'], 'flaky');
  });

  it('never runs a subscriber handler inline from publish()', () => {
    const { bus } = newBus();
    let calls = 0;
    bus.subscribe({
      name: 'counter',
      handler: () => {
        calls++;
      },
    });
    bus.start();
    bus.publish({ type: 'a', n: 1 });
    assert.equal(calls, 0);
  });

  it('warns about subscribers added after start() unless they are leader-only', () => {
    const { bus, logger } = newBus();
    bus.start();
    bus.subscribe({ name: 'late', handler: () => undefined });
    bus.subscribe({ name: 'leader-only', isLeaderOnly: true, handler: () => undefined });
    assert.deepEqual(
      logger.warnings.map((w) => w.obj['subscriber']),
      ['late'],
    );
  });

  it('holds dispatch for a subscription created paused until resume()', async () => {
    const { bus } = newBus();
    const seen: number[] = [];
    const sub = bus.subscribe({
      name: 'held',
      isPaused: true,
      handler: (e) => {
        seen.push(e.n);
      },
    });
    bus.start();
    bus.publish({ type: 'a', n: 1 });
    await bus.whenIdle();
    assert.deepEqual(seen, []);
    assert.equal(sub.depth, 1);
    sub.resume();
    await bus.whenIdle();
    assert.deepEqual(seen, [1]);
  });

  it('lets an observer pause the bus during replay, keeping the rest buffered', async () => {
    const { bus } = newBus();
    const seen: number[] = [];
    bus.subscribe({
      name: 'recorder',
      handler: (e) => {
        seen.push(e.n);
      },
    });
    bus.observe('pauser', ['b'], () => {
      bus.pause();
    });
    bus.publish({ type: 'a', n: 1 });
    bus.publish({ type: 'b', n: 2 });
    bus.publish({ type: 'a', n: 3 });
    bus.start();
    await bus.whenIdle();
    assert.deepEqual(seen, [1, 2]);
    assert.equal(bus.stats().preStartBuffered, 1);
    bus.start();
    await bus.whenIdle();
    assert.deepEqual(seen, [1, 2, 3]);
  });
});

import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { InvalidArgumentError } from '../../../../src/core/errors.js';
import { KubeTimeoutError } from '../../../../src/k8s/client/kube-errors.js';
import {
  LeaseElector,
  type LeaseElectorOptions,
} from '../../../../src/k8s/leader/lease-elector.js';
import { microTime, type LeaseSpec } from '../../../../src/k8s/leader/lease.js';
import { FakeLeaseStore, FakeTimeline, flush } from './fake-lease-store.js';

/** The stored spec, read afresh (an empty spec when the lease does not exist). */
function spec(store: FakeLeaseStore): LeaseSpec {
  return store.lease?.spec ?? {};
}

/** Reads `aborted` without TypeScript narrowing it across awaits. */
function isAborted(signal: AbortSignal): boolean {
  return signal.aborted;
}

const LEASE = 2_000;
const RENEW = 1_500;
const RETRY = 250;

interface Harness {
  elector: LeaseElector;
  events: string[];
  errors: unknown[];
  termSignals: AbortSignal[];
  controller: AbortController;
  done: Promise<void> | undefined;
  start: () => void;
}

function harness(
  store: FakeLeaseStore,
  time: FakeTimeline,
  identity: string,
  extra: Partial<LeaseElectorOptions> = {},
): Harness {
  const events: string[] = [];
  const errors: unknown[] = [];
  const termSignals: AbortSignal[] = [];
  const controller = new AbortController();
  const elector = new LeaseElector({
    store,
    identity,
    leaseDurationMs: LEASE,
    renewDeadlineMs: RENEW,
    retryPeriodMs: RETRY,
    clock: time,
    sleep: time.sleep,
    callbacks: {
      onStartedLeading: (epoch, signal) => {
        events.push(`started:${epoch}@${time.monotonic()}`);
        termSignals.push(signal);
      },
      onStoppedLeading: () => events.push(`stopped@${time.monotonic()}`),
      onNewLeader: (id) => events.push(`leader:${id}`),
    },
    onError: (err) => errors.push(err),
    ...extra,
  });
  const h: Harness = {
    elector,
    events,
    errors,
    termSignals,
    controller,
    done: undefined,
    start: () => {
      h.done = elector.run(controller.signal);
    },
  };
  return h;
}

/** A fresh lease store and timeline. */
function world(): { store: FakeLeaseStore; time: FakeTimeline } {
  return { store: new FakeLeaseStore(), time: new FakeTimeline() };
}

/** An elector started and given one turn of the timeline (it leads if the lease is free). */
async function leading(
  store: FakeLeaseStore,
  time: FakeTimeline,
  identity: string,
): Promise<Harness> {
  const h = harness(store, time, identity);
  h.start();
  await time.advance(0);
  return h;
}

async function stop(h: Harness, time: FakeTimeline): Promise<void> {
  h.controller.abort();
  await time.advance(0);
  await h.done;
}

describe('LeaseElector (fake lease store, fake time)', () => {
  it('creates a missing lease, leads with epoch 1 and reports itself as the new leader', async () => {
    const { store, time } = world();
    const a = await leading(store, time, 'a');
    assert.deepEqual(a.events, ['leader:a', 'started:1@0']);
    assert.equal(a.elector.isLeader, true);
    assert.equal(a.elector.epoch, 1);
    assert.equal(spec(store).holderIdentity, 'a');
    assert.equal(spec(store).leaseTransitions, 1);
    assert.equal(spec(store).leaseDurationSeconds, 2);
    assert.match(spec(store).renewTime ?? '', /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{6}Z$/);
    await stop(a, time);
  });

  it('renews every retryPeriod, moving renewTime and keeping the epoch', async () => {
    const { store, time } = world();
    const a = await leading(store, time, 'a');
    const firstRenew = spec(store).renewTime;
    await time.advance(RETRY);
    assert.notEqual(spec(store).renewTime, firstRenew);
    assert.equal(spec(store).renewTime, microTime(time.now()));
    await time.advance(RETRY * 8);
    assert.equal(spec(store).leaseTransitions, 1);
    assert.equal(a.elector.epoch, 1);
    assert.deepEqual(a.events, ['leader:a', 'started:1@0']);
    await stop(a, time);
  });

  it('follows a renewing holder and never takes its lease', async () => {
    const { store, time } = world();
    const a = await leading(store, time, 'a');
    const b = harness(store, time, 'b');
    b.start();
    await time.advance(LEASE * 5);
    assert.equal(spec(store).holderIdentity, 'a');
    assert.equal(b.elector.isLeader, false);
    assert.equal(b.elector.observedLeader, 'a');
    assert.deepEqual(b.events, ['leader:a']);
    await stop(a, time);
    await stop(b, time);
  });

  it('takes over a lease that stops being renewed exactly one leaseDuration after last seeing it change, with epoch + 1', async () => {
    const { store, time } = world();
    const now = microTime(time.now());
    store.put({
      holderIdentity: 'dead',
      leaseDurationSeconds: 2,
      acquireTime: now,
      renewTime: now,
      leaseTransitions: 7,
    });
    const b = harness(store, time, 'b');
    b.start();
    await time.advance(LEASE - 1);
    assert.equal(b.elector.isLeader, false);
    assert.equal(spec(store).holderIdentity, 'dead');
    await time.advance(1);
    assert.equal(spec(store).holderIdentity, 'b');
    assert.equal(spec(store).leaseTransitions, 8);
    assert.deepEqual(b.events, ['leader:dead', 'leader:b', `started:8@${LEASE}`]);
    await stop(b, time);
  });

  it('judges expiry from its own observation time, not from an old renewTime in the lease', async () => {
    const { store, time } = world();
    store.put({
      holderIdentity: 'other',
      leaseDurationSeconds: 2,
      renewTime: microTime(time.now() - 3_600_000),
      leaseTransitions: 1,
    });
    const b = harness(store, time, 'b');
    b.start();
    await time.advance(LEASE - 1);
    assert.equal(spec(store).holderIdentity, 'other');
    await time.advance(1);
    assert.equal(spec(store).holderIdentity, 'b');
    await stop(b, time);
  });

  it('takes a released lease (empty holder) at its next poll without waiting for expiry', async () => {
    const { store, time } = world();
    const a = await leading(store, time, 'a');
    const b = harness(store, time, 'b');
    b.start();
    await time.advance(RETRY * 2);
    await stop(a, time);
    assert.equal(spec(store).holderIdentity, '');
    assert.equal(spec(store).leaseTransitions, 1);
    await time.advance(RETRY);
    assert.equal(spec(store).holderIdentity, 'b');
    assert.equal(b.elector.epoch, 2);
    await stop(b, time);
  });

  it('ends the term, calls onStoppedLeading and then releases on graceful shutdown', async () => {
    const { store, time } = world();
    const a = harness(store, time, 'a');
    let holderWhenStopped: string | undefined;
    const b = harness(store, time, 'b', {
      callbacks: {
        onStartedLeading: () => undefined,
        onStoppedLeading: () => {
          holderWhenStopped = spec(store).holderIdentity;
        },
      },
    });
    b.start();
    await time.advance(0);
    a.start();
    await time.advance(RETRY);
    await stop(b, time);
    assert.equal(holderWhenStopped, 'b');
    assert.equal(spec(store).holderIdentity, '');
    assert.equal(spec(store).leaseDurationSeconds, 1);
    assert.equal(b.elector.isLeader, false);
    await stop(a, time);
  });

  it('leaves the lease held when releaseOnCancel is false (a simulated crash)', async () => {
    const { store, time } = world();
    const a = harness(store, time, 'a', { releaseOnCancel: false });
    a.start();
    await time.advance(0);
    await stop(a, time);
    assert.equal(spec(store).holderIdentity, 'a');
    assert.equal(a.termSignals[0]?.aborted, true);
    assert.deepEqual(a.events, ['leader:a', 'started:1@0', 'stopped@0']);
  });

  it('stops leading exactly at renewDeadline when renewals keep failing, and aborts the term signal', async () => {
    const { store, time } = world();
    const a = await leading(store, time, 'a');
    for (let i = 0; i < 20; i++)
      store.failNext.push(new KubeTimeoutError({ method: 'PUT', path: '/x' }, 504, undefined));
    await time.advance(RENEW - 1);
    const term = a.termSignals[0]!;
    assert.equal(a.elector.isLeader, true);
    assert.equal(isAborted(term), false);
    await time.advance(1);
    assert.equal(a.elector.isLeader, false);
    assert.equal(isAborted(term), true);
    assert.ok(a.events.includes(`stopped@${RENEW}`), a.events.join());
    assert.ok(a.errors.length >= 1);
    await stop(a, time);
  });

  it('stops leading at renewDeadline even while a renewal request hangs', async () => {
    const { store, time } = world();
    const a = await leading(store, time, 'a');
    store.hang = true;
    await time.advance(RENEW);
    assert.equal(a.termSignals[0]?.aborted, true);
    assert.ok(a.events.includes(`stopped@${RENEW}`), a.events.join());
    store.unhang();
    await stop(a, time);
  });

  it('stops leading at once when a renewal finds another holder with a newer epoch', async () => {
    const { store, time } = world();
    const a = await leading(store, time, 'a');
    const now = microTime(time.now());
    store.put({ holderIdentity: 'usurper', renewTime: now, leaseTransitions: 2 });
    await time.advance(RETRY);
    assert.equal(a.elector.isLeader, false);
    assert.ok(a.events.includes(`stopped@${RETRY}`), a.events.join());
    assert.ok(a.events.includes('leader:usurper'));
    await stop(a, time);
  });

  it('renews on top of a foreign edit that left it the holder (409 then re-read)', async () => {
    const { store, time } = world();
    const a = await leading(store, time, 'a');
    const lease = store.lease;
    assert.ok(lease);
    store.put({ ...lease.spec }); // a label edit bumps resourceVersion only
    await time.advance(RETRY);
    assert.equal(a.elector.isLeader, true);
    assert.equal(spec(store).renewTime, microTime(time.now()));
    assert.deepEqual(store.calls.slice(-3), ['update', 'get', 'update']);
    await stop(a, time);
  });

  it('releases on top of a renewal that landed unseen (stale resourceVersion, same term)', async () => {
    const { store, time } = world();
    const a = harness(store, time, 'a');
    const signal = new AbortController().signal;
    assert.equal(await a.elector.tryAcquire(signal), 1);
    store.put({ ...spec(store), renewTime: microTime(time.now() + 1) });
    assert.equal(await a.elector.release(signal), true);
    assert.equal(spec(store).holderIdentity, '');
    assert.equal(spec(store).leaseTransitions, 1);
  });

  it('does not release a lease another holder has taken', async () => {
    const { store, time } = world();
    const a = harness(store, time, 'a');
    const signal = new AbortController().signal;
    assert.equal(await a.elector.tryAcquire(signal), 1);
    store.put({ holderIdentity: 'b', leaseDurationSeconds: 2, leaseTransitions: 2 });
    assert.equal(await a.elector.release(signal), false);
    assert.equal(spec(store).holderIdentity, 'b');
    assert.equal(a.elector.isLeader, false);
  });

  it('stays a follower when it loses the takeover race (409 on the update)', async () => {
    const { store, time } = world();
    store.put({ holderIdentity: '', leaseTransitions: 4 });
    const b = harness(store, time, 'b');
    store.beforeWrite = () => {
      store.beforeWrite = undefined;
      store.put({ holderIdentity: 'c', leaseDurationSeconds: 2, leaseTransitions: 5 });
    };
    b.start();
    await time.advance(0);
    assert.equal(b.elector.isLeader, false);
    assert.equal(spec(store).holderIdentity, 'c');
    await time.advance(RETRY);
    assert.equal(b.elector.observedLeader, 'c');
    assert.deepEqual(b.events, ['leader:c']);
    await stop(b, time);
  });

  it('starts a new term with a higher epoch when it re-acquires a lease that still names it', async () => {
    const { store, time } = world();
    const a = harness(store, time, 'a', { releaseOnCancel: false });
    a.start();
    await time.advance(0);
    await stop(a, time);
    const restarted = await leading(store, time, 'a');
    assert.equal(restarted.elector.epoch, 2);
    assert.equal(spec(store).leaseTransitions, 2);
    await stop(restarted, time);
  });

  it('does not revive a term when a renewal succeeds only after the renew deadline', async () => {
    const { store, time } = world();
    const a = await leading(store, time, 'a');
    store.hang = true;
    await time.advance(RENEW);
    assert.equal(a.elector.isLeader, false);
    store.unhang();
    await time.advance(RETRY);
    // It campaigns again and starts a second term with a new epoch.
    assert.equal(a.elector.epoch, 2);
    assert.equal(a.events.filter((e) => e.startsWith('started:')).length, 2);
    await stop(a, time);
  });

  it('reports a rejecting onStartedLeading through onError and keeps leading', async () => {
    const { store, time } = world();
    const boom = new Error('boom');
    const a = harness(store, time, 'a', {
      callbacks: {
        onStartedLeading: () => Promise.reject(boom),
      },
    });
    a.start();
    await time.advance(RETRY);
    assert.deepEqual(a.errors, [boom]);
    assert.equal(a.elector.isLeader, true);
    await stop(a, time);
  });

  it('rejects durations that break leaseDuration > renewDeadline > retryPeriod > 0', () => {
    const store = new FakeLeaseStore();
    const base = { store, identity: 'a', callbacks: { onStartedLeading: () => undefined } };
    assert.throws(
      () => new LeaseElector({ ...base, leaseDurationMs: 1000, renewDeadlineMs: 1000 }),
      InvalidArgumentError,
    );
    assert.throws(
      () => new LeaseElector({ ...base, renewDeadlineMs: 2000, retryPeriodMs: 2000 }),
      InvalidArgumentError,
    );
    assert.throws(() => new LeaseElector({ ...base, retryPeriodMs: 0 }), InvalidArgumentError);
    assert.throws(() => new LeaseElector({ ...base, identity: '' }), InvalidArgumentError);
    const defaults = new LeaseElector(base);
    assert.equal(defaults.isLeader, false);
  });

  it('hands leadership between three electors across crashes with strictly increasing epochs and no overlap', async () => {
    const { store, time } = world();
    const intervals: { id: string; epoch: number; from: number; to: number }[] = [];
    const open = new Map<string, { epoch: number; from: number }>();
    const make = (id: string): Harness =>
      harness(store, time, id, {
        releaseOnCancel: false,
        callbacks: {
          onStartedLeading: (epoch) => {
            open.set(id, { epoch, from: time.monotonic() });
          },
          onStoppedLeading: () => {
            const o = open.get(id);
            if (o) intervals.push({ id, ...o, to: time.monotonic() });
            open.delete(id);
          },
        },
      });
    const electors = new Map<string, Harness>();
    for (const id of ['a', 'b', 'c']) {
      const h = make(id);
      electors.set(id, h);
      h.start();
      await time.advance(10);
    }
    for (let round = 0; round < 4; round++) {
      await time.advance(RETRY * 3);
      const leaderId = [...open.keys()][0];
      assert.ok(leaderId !== undefined, 'someone leads');
      const leader = electors.get(leaderId);
      assert.ok(leader);
      await stop(leader, time);
      const replacement = make(leaderId);
      electors.set(leaderId, replacement);
      replacement.start();
      await time.advance(LEASE + RETRY);
    }
    for (const h of electors.values()) await stop(h, time);
    await flush();
    assert.ok(intervals.length >= 5, JSON.stringify(intervals));
    const sorted = [...intervals].sort((x, y) => x.from - y.from);
    for (let i = 1; i < sorted.length; i++) {
      const prev = sorted[i - 1]!;
      const cur = sorted[i]!;
      assert.ok(cur.epoch > prev.epoch, `epochs increase: ${JSON.stringify(sorted)}`);
      assert.ok(cur.from >= prev.to, `no overlap: ${JSON.stringify(sorted)}`);
    }
  });
});

import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { sleep } from '../../../../src/core/abort.js';
import type { KubeClient } from '../../../../src/k8s/client/kube-client.js';
import { ConflictError } from '../../../../src/k8s/client/kube-errors.js';
import { KubeLeaseStore } from '../../../../src/k8s/leader/kube-lease-store.js';
import { leaderIdentity } from '../../../../src/k8s/leader/leader-identity.js';
import { LeaseElector } from '../../../../src/k8s/leader/lease-elector.js';
import type { Lease } from '../../../../src/k8s/leader/lease.js';
import { ControlPlane } from '../../../../src/testing/control-plane.js';

const LEASE_MS = 2_000;
const RENEW_MS = 1_500;
const RETRY_MS = 250;
/** Room for API round trips on a loaded two-core machine; the protocol bound comes first. */
const LATENCY_ALLOWANCE_MS = 500;
const NS = 'default';

interface Term {
  readonly id: string;
  readonly epoch: number;
  readonly from: number;
  to: number | undefined;
}

/** An elector running in this process, with its leadership terms recorded. */
class Candidate {
  readonly id = leaderIdentity({ hostname: 'replica', randomSuffix: true });
  readonly terms: Term[];
  readonly elector: LeaseElector;
  private readonly controller = new AbortController();
  private done: Promise<void> | undefined;
  private startedWaiters: (() => void)[] = [];

  constructor(client: KubeClient, leaseName: string, terms: Term[], releaseOnCancel: boolean) {
    this.terms = terms;
    this.elector = new LeaseElector({
      store: new KubeLeaseStore(client, NS, leaseName),
      identity: this.id,
      leaseDurationMs: LEASE_MS,
      renewDeadlineMs: RENEW_MS,
      retryPeriodMs: RETRY_MS,
      releaseOnCancel,
      callbacks: {
        onStartedLeading: (epoch) => {
          this.terms.push({ id: this.id, epoch, from: performance.now(), to: undefined });
          for (const w of this.startedWaiters.splice(0)) w();
        },
        onStoppedLeading: () => {
          const open = this.terms.find((t) => t.id === this.id && t.to === undefined);
          if (open) open.to = performance.now();
        },
      },
    });
  }

  start(): void {
    this.done = this.elector.run(this.controller.signal);
  }

  async stop(): Promise<void> {
    this.controller.abort();
    await this.done;
  }

  /** Resolves when this candidate starts a term (bounded). */
  async startedLeading(timeoutMs: number): Promise<void> {
    if (this.elector.isLeader) return;
    await Promise.race([
      new Promise<void>((resolve) => this.startedWaiters.push(resolve)),
      sleep(timeoutMs).then(() => {
        throw new Error(`${this.id} did not start leading within ${timeoutMs} ms`);
      }),
    ]);
  }
}

describe('LeaseElector against a real kube-apiserver', { timeout: 120_000 }, () => {
  let cp: ControlPlane;
  let client: KubeClient;
  const running: Candidate[] = [];

  before(async () => {
    cp = await ControlPlane.start({});
    client = cp.client('admin');
  });

  after(async () => {
    await Promise.all(running.map((c) => c.stop()));
    client.close();
    await cp.stop();
  });

  const readLease = (name: string): Promise<Lease> =>
    client.request<Lease>({
      method: 'GET',
      path: `/apis/coordination.k8s.io/v1/namespaces/${NS}/leases/${name}`,
    });

  const candidate = (lease: string, terms: Term[], releaseOnCancel = true): Candidate => {
    const c = new Candidate(client, lease, terms, releaseOnCancel);
    running.push(c);
    c.start();
    return c;
  };

  it('KubeLeaseStore reports a second create as already-exists and a stale update as an optimistic-lock conflict', async () => {
    const store = new KubeLeaseStore(client, NS, 'store-semantics');
    const signal = AbortSignal.timeout(10_000);
    assert.equal(await store.get(signal), undefined);
    const created = await store.create({ holderIdentity: 'x', leaseTransitions: 1 }, signal);
    await assert.rejects(
      store.create({ holderIdentity: 'y' }, signal),
      (err: unknown) => err instanceof ConflictError && err.conflictKind === 'already-exists',
    );
    const rv = created.metadata.resourceVersion ?? '';
    const updated = await store.update({ holderIdentity: 'z', leaseTransitions: 2 }, rv, signal);
    assert.notEqual(updated.metadata.resourceVersion, rv);
    await assert.rejects(
      store.update({ holderIdentity: 'w', leaseTransitions: 3 }, rv, signal),
      (err: unknown) => err instanceof ConflictError && err.conflictKind === 'optimistic-lock',
    );
    assert.equal((await store.get(signal))?.spec.holderIdentity, 'z');
  });

  it('lets exactly one of five electors win a fresh lease', async () => {
    const terms: Term[] = [];
    const electors = [0, 1, 2, 3, 4].map(() => candidate('fresh-race', terms));
    const deadline = performance.now() + 5_000;
    while (terms.length === 0 && performance.now() < deadline) await sleep(20);
    await sleep(RETRY_MS * 3);
    assert.equal(terms.length, 1);
    assert.equal(electors.filter((e) => e.elector.isLeader).length, 1);
    const lease = await readLease('fresh-race');
    assert.equal(lease.spec.holderIdentity, terms[0]!.id);
    assert.equal(lease.spec.leaseTransitions, 1);
    await Promise.all(electors.map((e) => e.stop()));
  });

  it('hands over within leaseDuration + retryPeriod when the leader dies without releasing', async () => {
    const terms: Term[] = [];
    const a = candidate('crash-handover', terms, false);
    await a.startedLeading(5_000);
    const b = candidate('crash-handover', terms, false);
    await sleep(RETRY_MS * 3);
    assert.equal(b.elector.isLeader, false);
    assert.equal(b.elector.observedLeader, a.id);
    const before = await readLease('crash-handover');
    assert.equal(before.spec.holderIdentity, a.id);

    const killedAt = performance.now();
    await a.stop(); // no release: the lease still names a
    assert.equal((await readLease('crash-handover')).spec.holderIdentity, a.id);
    await b.startedLeading(LEASE_MS + RETRY_MS + 5_000);
    const handoverMs = performance.now() - killedAt;
    console.log(
      `leader election: crash handover took ${handoverMs.toFixed(0)} ms (bound ${LEASE_MS + RETRY_MS} ms)`,
    );
    assert.ok(
      handoverMs <= LEASE_MS + RETRY_MS + LATENCY_ALLOWANCE_MS,
      `handover ${handoverMs.toFixed(0)} ms exceeds leaseDuration + retryPeriod`,
    );
    const after = await readLease('crash-handover');
    assert.equal(after.spec.holderIdentity, b.id);
    assert.equal(after.spec.leaseTransitions, (before.spec.leaseTransitions ?? 0) + 1);
    assert.equal(b.elector.epoch, after.spec.leaseTransitions);
    assert.ok(terms[1]!.epoch > terms[0]!.epoch);
    assert.ok(terms[1]!.from >= terms[0]!.to!);
    await b.stop();
  });

  it('hands over within retryPeriod + 1 s after a graceful stop releases the lease', async () => {
    const terms: Term[] = [];
    const a = candidate('graceful-handover', terms);
    await a.startedLeading(5_000);
    const b = candidate('graceful-handover', terms);
    // Off the retry grid, so the stop does not land just before b's poll every time.
    await sleep(RETRY_MS * 2 + 120);
    const stoppedAt = performance.now();
    await a.stop();
    const released = await readLease('graceful-handover');
    // Either still empty from the release, or b already took it over.
    assert.ok(
      released.spec.holderIdentity === '' || released.spec.holderIdentity === b.id,
      `holder after release: ${released.spec.holderIdentity ?? '(none)'}`,
    );
    await b.startedLeading(RETRY_MS + 1_000 + 5_000);
    const handoverMs = performance.now() - stoppedAt;
    console.log(
      `leader election: graceful handover took ${handoverMs.toFixed(0)} ms (bound ${RETRY_MS + 1_000} ms)`,
    );
    assert.ok(handoverMs <= RETRY_MS + 1_000, `handover ${handoverMs.toFixed(0)} ms`);
    const lease = await readLease('graceful-handover');
    assert.equal(lease.spec.holderIdentity, b.id);
    assert.equal(lease.spec.leaseTransitions, 2);
    assert.deepEqual(
      terms.map((t) => t.epoch),
      [1, 2],
    );
    assert.ok(terms[1]!.from >= terms[0]!.to!, 'the new term starts after the old one ended');
    await b.stop();
  });

  it('records no overlapping leadership intervals and strictly increasing epochs across handovers of three electors', async () => {
    const terms: Term[] = [];
    const electors = [0, 1, 2].map(() => candidate('three-electors', terms, false));
    for (let round = 0; round < 4; round++) {
      const deadline = performance.now() + LEASE_MS + RETRY_MS + 5_000;
      let leader: Candidate | undefined;
      while (!leader && performance.now() < deadline) {
        leader = electors.find((e) => e.elector.isLeader);
        if (!leader) await sleep(50);
      }
      assert.ok(leader, `round ${round}: a leader emerges`);
      await sleep(RETRY_MS * 2);
      // Alternate crashes (no release) with graceful stops (explicit release after the term).
      await leader.stop();
      if (round % 2 === 1)
        assert.equal(await leader.elector.release(AbortSignal.timeout(5_000)), true);
      const next = candidate('three-electors', terms, false);
      electors[electors.indexOf(leader)] = next;
    }
    await sleep(LEASE_MS + RETRY_MS * 2);
    await Promise.all(electors.map((e) => e.stop()));
    assert.ok(
      terms.every((t) => t.to !== undefined),
      'every term ended',
    );
    assert.ok(terms.length >= 5, `terms: ${terms.length}`);
    const sorted = [...terms].sort((x, y) => x.from - y.from);
    for (let i = 1; i < sorted.length; i++) {
      const prev = sorted[i - 1]!;
      const cur = sorted[i]!;
      assert.ok(cur.epoch > prev.epoch, `epoch ${cur.epoch} after ${prev.epoch}`);
      assert.ok(cur.from >= prev.to!, `term ${cur.epoch} starts before ${prev.epoch} ended`);
    }
    console.log(
      `leader election: ${sorted.length} terms, epochs ${sorted.map((t) => t.epoch).join(',')}`,
    );
  });
});

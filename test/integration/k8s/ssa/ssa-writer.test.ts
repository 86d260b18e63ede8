// STATUS-OWNERSHIP.md §4, behaviours 10, 11, 29 and 30, and the StatusWriter's rules against a
// real kube-apiserver: skip, lastTransitionTime, observedGeneration guard, 404, shared lists.
import assert from 'node:assert/strict';
import { before, describe, it } from 'node:test';
import type { Clock } from '../../../../src/core/clock.js';
import { ConflictError } from '../../../../src/k8s/client/kube-errors.js';
import type { KubeClient } from '../../../../src/k8s/client/kube-client.js';
import { StatusWriter, type StatusTarget } from '../../../../src/k8s/ssa/status-writer.js';
import { probes, routes } from './fixtures/probe-crds.js';
import {
  cond,
  condOf,
  CountingClient,
  entryOf,
  Probes,
  rejection,
  useFixtureControlPlane,
} from './fixtures/ssa-helpers.js';

class FakeClock implements Clock {
  constructor(public ms: number) {}
  now(): number {
    return this.ms;
  }
  monotonic(): number {
    return this.ms;
  }
}

const T0 = Date.parse('2026-03-01T10:00:00.000Z');

function probe(name: string): StatusTarget {
  return { resource: probes, kind: 'Probe', namespace: 'default', name };
}
function route(name: string): StatusTarget {
  return { resource: routes, kind: 'HTTPRoute', namespace: 'default', name };
}

function parent(controller: string, gateway: string, status = 'True'): Record<string, unknown> {
  return {
    parentRef: { group: 'gateway.networking.k8s.io', kind: 'Gateway', name: gateway },
    controllerName: controller,
    conditions: [
      { type: 'Accepted', status, reason: 'Accepted', message: '', observedGeneration: 1 },
    ],
  };
}

/** A parent entry as a blind apply must send it: with lastTransitionTime set by hand. */
function timedParent(controller: string, gateway: string): Record<string, unknown> {
  const e = parent(controller, gateway);
  const conditions = e['conditions'] as Record<string, unknown>[];
  return {
    ...e,
    conditions: conditions.map((c) => ({ ...c, lastTransitionTime: '2026-01-01T00:00:00Z' })),
  };
}

const fastRetry = { initialMs: 10, maxMs: 50 };

describe('StatusWriter on a real kube-apiserver (behaviours 10, 11, 29, 30)', () => {
  const fixture = useFixtureControlPlane();
  let client: KubeClient;
  let p: Probes;
  let r: Probes;

  before(() => {
    client = fixture.client;
    p = new Probes(client, probes, 'Probe');
    r = new Probes(client, routes, 'HTTPRoute');
  });

  it('10: a writer run twice with the same status sends no PATCH the second time', async () => {
    await p.create('w10');
    const counting = new CountingClient(client);
    const writer = new StatusWriter(counting, {
      fieldManager: 'haptic-test',
      clock: new FakeClock(T0),
    });
    const status = {
      observedGeneration: 1,
      conditions: [{ type: 'Ready', status: 'True', reason: 'Ok', message: 'fine' }],
      addresses: ['10.1.1.1'],
    };
    const first = await writer.write(probe('w10'), status);
    assert.deepEqual([first.written, first.reason, counting.count('PATCH')], [true, 'applied', 1]);
    const second = await writer.write(probe('w10'), status);
    assert.deepEqual(
      [second.written, second.reason, second.requests, counting.count('PATCH')],
      [false, 'unchanged', 0, 1],
    );
    assert.equal(second.resourceVersion, first.resourceVersion);
  });

  it('10: the writer repairs a human edit of its field instead of trusting what it sent last', async () => {
    await p.create('h10');
    const writer = new StatusWriter(client, {
      fieldManager: 'haptic-test',
      clock: new FakeClock(T0),
    });
    const status = {
      conditions: [{ type: 'Ready', status: 'True', reason: 'Ok', message: 'fine' }],
    };
    await writer.write(probe('h10'), status);
    const live = await p.get('h10');
    await p.raw({
      method: 'PATCH',
      path: p.path('h10', 'status'),
      query: { fieldManager: 'kubectl-edit' },
      contentType: 'application/merge-patch+json',
      body: {
        status: { conditions: [{ ...condOf(live, 'Ready'), message: 'edited by hand' }] },
      },
    });
    const res = await writer.write(probe('h10'), status);
    assert.deepEqual([res.written, res.reason], [true, 'applied']);
    assert.equal(condOf(await p.get('h10'), 'Ready')?.['message'], 'fine');
  });

  it('11: lastTransitionTime is kept when only reason or message change and set to the new second when status flips', async () => {
    await p.create('t11');
    const clock = new FakeClock(T0 + 123);
    const writer = new StatusWriter(client, { fieldManager: 'haptic-test', clock });
    const ready = (status: string, reason: string): Record<string, unknown> => ({
      conditions: [{ type: 'Ready', status, reason, message: reason }],
    });
    await writer.write(probe('t11'), ready('True', 'First'));
    assert.equal(
      condOf(await p.get('t11'), 'Ready')?.['lastTransitionTime'],
      '2026-03-01T10:00:00Z',
    );
    clock.ms = T0 + 60_456;
    const reworded = await writer.write(probe('t11'), ready('True', 'Second'));
    assert.equal(reworded.written, true);
    const kept = condOf(await p.get('t11'), 'Ready');
    assert.equal(kept?.['reason'], 'Second');
    assert.equal(kept['lastTransitionTime'], '2026-03-01T10:00:00Z');
    clock.ms = T0 + 120_789;
    await writer.write(probe('t11'), ready('False', 'Third'));
    const flipped = condOf(await p.get('t11'), 'Ready');
    assert.equal(flipped?.['status'], 'False');
    assert.equal(flipped['lastTransitionTime'], '2026-03-01T10:02:00Z');
  });

  it('guards observedGeneration: a writer behind the live condition does not write', async () => {
    await p.create('g-guard');
    const counting = new CountingClient(client);
    const writer = new StatusWriter(counting, { fieldManager: 'haptic-test' });
    const at = (gen: number): Record<string, unknown> => ({
      conditions: [
        { type: 'Ready', status: 'True', reason: 'Ok', message: '', observedGeneration: gen },
      ],
    });
    await writer.write(probe('g-guard'), at(5));
    const stale = await writer.write(probe('g-guard'), at(4));
    assert.equal(stale.written, false);
    assert.equal(stale.reason, 'stale-generation');
    assert.equal(counting.count('PATCH'), 1);
    assert.equal(condOf(await p.get('g-guard'), 'Ready')?.['observedGeneration'], 5);
  });

  it('drops the work with a not-found result when the object is gone, before or during the write', async () => {
    const writer = new StatusWriter(client, { fieldManager: 'haptic-test' });
    const missing = await writer.write(probe('never-existed'), { conditions: [cond('Ready')] });
    assert.deepEqual([missing.written, missing.reason, missing.requests], [false, 'not-found', 0]);
    const created = await p.create('gone');
    await p.raw({ method: 'DELETE', path: p.path('gone') });
    const during = await writer.write(
      probe('gone'),
      { conditions: [cond('Ready')] },
      { live: created },
    );
    assert.deepEqual([during.written, during.reason, during.requests], [false, 'not-found', 1]);
  });

  it('29: a renamed manager leaves the old name’s fields in place; two replicas sharing one name prune each other', async () => {
    await p.create('n29');
    await p.applyStatus('w-pod-a', 'n29', { conditions: [cond('X'), cond('Y')] });
    const renamed = await p.applyStatus('w-pod-b', 'n29', { conditions: [cond('X')] });
    assert.deepEqual(renamed.status?.conditions?.map((c) => c['type']).sort(), ['X', 'Y']);
    assert.ok(entryOf(renamed, 'w-pod-a'));
    await p.create('r29');
    await p.applyStatus('w-shared', 'r29', { conditions: [cond('X'), cond('Y')] }); // replica 1
    const pruned = await p.applyStatus('w-shared', 'r29', { conditions: [cond('X')] }); // replica 2
    assert.deepEqual(
      pruned.status?.conditions?.map((c) => c['type']),
      ['X'],
    );
  });

  it('30: a blind apply to an atomic parents list conflicts, and force drops the other controller’s entry', async () => {
    await r.create('blind', { hostnames: ['a.example'] });
    await r.applyStatus('ctrl-a', 'blind', { parents: [timedParent('example.com/a', 'gw-a')] });
    const err = await rejection(
      r.applyStatus('ctrl-b', 'blind', { parents: [timedParent('example.com/b', 'gw-b')] }),
    );
    assert.ok(err instanceof ConflictError);
    assert.equal(err.conflictKind, 'ownership');
    assert.deepEqual(err.conflictingFields, ['.status.parents']);
    const forced = await r.applyStatus(
      'ctrl-b',
      'blind',
      { parents: [timedParent('example.com/b', 'gw-b')] },
      { force: true },
    );
    assert.deepEqual(
      forced.status?.parents?.map((e) => e['controllerName']),
      ['example.com/b'],
    );
  });

  it('30: read-modify-write keeps both controllers’ parents and skips an unchanged list', async () => {
    await r.create('rmw', { hostnames: ['a.example'] });
    const counting = new CountingClient(client);
    const a = new StatusWriter(counting, { fieldManager: 'ctrl-a', clock: new FakeClock(T0) });
    const b = new StatusWriter(client, {
      fieldManager: 'ctrl-b',
      clock: new FakeClock(T0),
    });
    const isA = (e: unknown): boolean =>
      (e as { controllerName?: string }).controllerName === 'example.com/a';
    const isB = (e: unknown): boolean =>
      (e as { controllerName?: string }).controllerName === 'example.com/b';
    const first = await a.writeSharedList(route('rmw'), {
      path: ['parents'],
      isOurs: isA,
      entries: [parent('example.com/a', 'gw-a')],
    });
    assert.equal(first.written, true);
    await b.writeSharedList(route('rmw'), {
      path: ['parents'],
      isOurs: isB,
      entries: [parent('example.com/b', 'gw-b')],
    });
    const both = await r.get('rmw');
    assert.deepEqual(
      both.status?.parents?.map((e) => e['controllerName']),
      ['example.com/a', 'example.com/b'],
    );
    const again = await a.writeSharedList(route('rmw'), {
      path: ['parents'],
      isOurs: isA,
      entries: [parent('example.com/a', 'gw-a')],
    });
    assert.deepEqual(
      [again.written, again.reason, counting.count('PATCH')],
      [false, 'unchanged', 1],
    );
    // A changes its own entry: B's entry is untouched.
    await a.writeSharedList(route('rmw'), {
      path: ['parents'],
      isOurs: isA,
      entries: [parent('example.com/a', 'gw-a', 'False')],
    });
    const updated = await r.get('rmw');
    const parents = updated.status?.parents ?? [];
    assert.equal(parents.length, 2);
    assert.deepEqual(parents[1], both.status.parents[1]);
  });

  it('writes its own Ingress status.loadBalancer.ingress entries read-modify-write and keeps a foreign entry', async () => {
    const ingresses = {
      group: 'networking.k8s.io',
      version: 'v1',
      resource: 'ingresses',
      namespaced: true,
    };
    const ing = new Probes(client, ingresses, 'Ingress');
    await ing.apply(
      'creator',
      {
        apiVersion: 'networking.k8s.io/v1',
        kind: 'Ingress',
        metadata: { name: 'web', namespace: 'default' },
        spec: { defaultBackend: { service: { name: 'svc', port: { number: 80 } } } },
      },
      { force: true },
    );
    await ing.apply(
      'other-lb',
      {
        apiVersion: 'networking.k8s.io/v1',
        kind: 'Ingress',
        metadata: { name: 'web', namespace: 'default' },
        status: { loadBalancer: { ingress: [{ ip: '192.0.2.1' }] } },
      },
      { status: true },
    );
    const target: StatusTarget = {
      resource: ingresses,
      kind: 'Ingress',
      namespace: 'default',
      name: 'web',
    };
    const ours = (e: unknown): boolean =>
      (e as { ip?: string }).ip?.startsWith('198.51.100.') ?? false;
    const w = new StatusWriter(client, { fieldManager: 'haptic-ingress-status' });
    const res = await w.writeSharedList(target, {
      path: ['loadBalancer', 'ingress'],
      isOurs: ours,
      entries: [{ ip: '198.51.100.7' }],
    });
    assert.equal(res.written, true);
    const live = await ing.get('web');
    assert.deepEqual(live.status?.['loadBalancer'], {
      ingress: [{ ip: '192.0.2.1' }, { ip: '198.51.100.7' }],
    });
    const again = await w.writeSharedList(target, {
      path: ['loadBalancer', 'ingress'],
      isOurs: ours,
      entries: [{ ip: '198.51.100.7' }],
    });
    assert.equal(again.reason, 'unchanged');
  });

  it('30: a concurrent foreign write makes the read-modify-write fail with an optimistic-lock 409, and the retry keeps both entries', async () => {
    await r.create('race', { hostnames: ['a.example'] });
    const stale = await r.get('race');
    // Another controller writes between our read and our write.
    const b = new StatusWriter(client, { fieldManager: 'ctrl-b' });
    await b.writeSharedList(route('race'), {
      path: ['parents'],
      isOurs: (e) => (e as { controllerName?: string }).controllerName === 'example.com/b',
      entries: [parent('example.com/b', 'gw-b')],
    });
    const a = new StatusWriter(client, {
      fieldManager: 'ctrl-a',
      backoff: fastRetry,
    });
    const res = await a.writeSharedList(
      route('race'),
      {
        path: ['parents'],
        isOurs: (e) => (e as { controllerName?: string }).controllerName === 'example.com/a',
        entries: [parent('example.com/a', 'gw-a')],
      },
      { live: stale },
    );
    assert.deepEqual([res.written, res.reason, res.requests], [true, 'applied', 2]);
    const live = await r.get('race');
    assert.deepEqual(live.status?.parents?.map((e) => e['controllerName']).sort(), [
      'example.com/a',
      'example.com/b',
    ]);
  });
});

import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { NotFoundError } from '../../../../src/k8s/client/kube-errors.js';
import type { KubeObject } from '../../../../src/k8s/client/kube-object.js';
import { IndexedStore } from '../../../../src/k8s/informer/indexed-store.js';
import { AmbiguousLookupError } from '../../../../src/core/object-index/object-index-errors.js';
import { metadataOnly, OnDemandStore } from '../../../../src/k8s/informer/on-demand-store.js';
import { cm } from './fake-list-watch-transport.js';

function secret(name: string, rv: string, type = 'kubernetes.io/tls'): KubeObject {
  return cm(name, `uid-${name}`, rv, {
    kind: 'Secret',
    type,
    data: { 'tls.crt': 'x'.repeat(1000) },
  });
}

/** The API as the fetcher sees it: the latest version of each object. */
class FakeApi {
  readonly objects = new Map<string, KubeObject>();
  calls = 0;
  fetch = (ns: string | undefined, name: string): Promise<KubeObject> => {
    this.calls++;
    const o = this.objects.get(`${ns ?? ''}/${name}`);
    return o
      ? Promise.resolve(structuredClone(o))
      : Promise.reject(new NotFoundError({ method: 'GET', path: name }, 404, {}));
  };
}

function setup(ttlMs = 1_000) {
  const api = new FakeApi();
  let now = 0;
  const stubs = new IndexedStore({ indexBy: ['metadata.namespace', 'type'], reduce: metadataOnly });
  const store = new OnDemandStore(stubs, api.fetch, { ttlMs, now: () => now });
  const put = (o: KubeObject): void => {
    api.objects.set(`${o.metadata?.namespace ?? ''}/${o.metadata?.name ?? ''}`, o);
  };
  return { api, stubs, store, put, tick: (ms: number) => (now += ms) };
}

describe('OnDemandStore', () => {
  it('keeps only metadata in the store but indexes by fields of the whole object', () => {
    const t = setup();
    t.stubs.replace([secret('a', '1'), secret('b', '1', 'Opaque')], '1');
    const stub = t.stubs.get('default/a');
    assert.deepEqual(Object.keys(stub ?? {}).sort(), ['apiVersion', 'kind', 'metadata']);
    assert.equal(t.stubs.fetch('default', 'kubernetes.io/tls').length, 1);
  });

  it('fetches a body on first access and serves it from the cache afterwards', async () => {
    const t = setup();
    const a = secret('a', '1');
    t.put(a);
    t.stubs.replace([structuredClone(a)], '1');
    const [first] = await t.store.fetch('default', 'kubernetes.io/tls');
    assert.equal((first?.['data'] as Record<string, string>)['tls.crt']?.length, 1000);
    await t.store.getSingle('default', 'kubernetes.io/tls');
    await t.store.list();
    assert.equal(t.api.calls, 1);
  });

  it('refetches when the watched resourceVersion changes or the TTL expires', async () => {
    const t = setup(1_000);
    t.put(secret('a', '1'));
    t.stubs.replace([secret('a', '1')], '1');
    await t.store.list();
    t.put(secret('a', '2'));
    t.stubs.apply('MODIFIED', secret('a', '2'));
    await t.store.list();
    assert.equal(t.api.calls, 2);
    t.tick(1_001);
    await t.store.list();
    assert.equal(t.api.calls, 3);
    assert.equal(t.store.cachedCount, 1);
  });

  it('shares one fetch between concurrent readers of the same object', async () => {
    const t = setup();
    t.put(secret('a', '1'));
    t.stubs.replace([secret('a', '1')], '1');
    await Promise.all([t.store.list(), t.store.list(), t.store.fetch('default')]);
    assert.equal(t.api.calls, 1);
  });

  it('leaves out an object deleted between the watch event and the read', async () => {
    const t = setup();
    t.stubs.replace([secret('a', '1')], '1');
    assert.deepEqual(await t.store.list(), []);
    assert.equal(await t.store.getSingle('default', 'kubernetes.io/tls'), null);
  });

  it('getSingle throws when several objects match', async () => {
    const t = setup();
    t.stubs.replace([secret('a', '1'), secret('b', '1')], '1');
    await assert.rejects(t.store.getSingle('default'), AmbiguousLookupError);
  });
});

/**
 * The informer store must behave like the templating FixtureStore so templates render the same
 * in `haptic render` (fixtures) and in the controller (live stores).
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { KubeObject } from '../../../../src/k8s/client/kube-object.js';
import { IndexedStore } from '../../../../src/k8s/informer/indexed-store.js';
import { FixtureStore } from '../../../../src/templating/fixture-store.js';
import type { ResourceStore } from '../../../../src/templating/resource-store.js';

function slice(ns: string, name: string, service?: string): KubeObject {
  return {
    apiVersion: 'discovery.k8s.io/v1',
    kind: 'EndpointSlice',
    metadata: {
      namespace: ns,
      name,
      uid: `${ns}-${name}`,
      resourceVersion: '1',
      ...(service !== undefined && { labels: { 'kubernetes.io/service-name': service } }),
    },
  };
}

const OBJECTS = [
  slice('b', 'web-2', 'web'),
  slice('a', 'web-1', 'web'),
  slice('a', 'db-1', 'db'),
  slice('a', 'orphan'),
];

const names = (objs: readonly object[]): string[] =>
  objs.map((o) => (o as KubeObject).metadata?.name ?? '');

describe('IndexedStore parity with the templating FixtureStore', () => {
  for (const indexBy of [
    ['metadata.namespace', 'metadata.name'],
    ['metadata.namespace', "metadata.labels['kubernetes.io/service-name']"],
  ]) {
    it(`answers list, fetch and getSingle like FixtureStore for indexBy ${indexBy.join(', ')}`, () => {
      const live = new IndexedStore({ indexBy });
      live.replace(structuredClone(OBJECTS), '1');
      const asResourceStore: ResourceStore = live;
      const fixture = new FixtureStore('slices', structuredClone(OBJECTS), indexBy);
      assert.deepEqual(names(asResourceStore.list()), names(fixture.list()));
      const probes: string[][] = [
        [],
        ['a'],
        ['b'],
        ['zzz'],
        ['a', 'web-1'],
        ['a', 'web'],
        ['a', ''],
        ['a', 'db'],
      ];
      for (const keys of probes) {
        assert.deepEqual(
          names(live.fetch(...keys)),
          names(fixture.fetch(...keys)),
          `fetch(${keys.join(',')})`,
        );
        const single = (s: ResourceStore): string => {
          try {
            return names([s.getSingle(...keys) ?? {}])[0] ?? '';
          } catch {
            return 'throws';
          }
        };
        assert.equal(single(live), single(fixture), `getSingle(${keys.join(',')})`);
      }
    });
  }
});

function ingress(ns: string, name: string, hosts: string[]): KubeObject {
  return {
    apiVersion: 'networking.k8s.io/v1',
    kind: 'Ingress',
    metadata: { namespace: ns, name, uid: `${ns}-${name}`, resourceVersion: '1' },
    spec: { rules: hosts.map((host) => ({ host })) },
  };
}

const INGRESSES = [
  ingress('a', 'shop', ['shop.example.com', 'www.example.com']),
  ingress('b', 'blog', ['blog.example.com', 'www.example.com']),
  ingress('a', 'empty', []),
];

describe('IndexedStore and FixtureStore with a wildcard indexBy', () => {
  const indexBy = ['spec.rules[*].host'];
  const live = new IndexedStore({ indexBy });
  live.replace(structuredClone(INGRESSES), '1');
  const fixture = new FixtureStore('ingresses', structuredClone(INGRESSES), indexBy);

  it('find an object under every value of the wildcard, not only the first', () => {
    for (const s of [live, fixture] as ResourceStore[]) {
      assert.deepEqual(names(s.fetch('shop.example.com')), ['shop']);
      assert.deepEqual(names(s.fetch('www.example.com')), ['blog', 'shop']);
      assert.deepEqual(names(s.fetch('')), ['empty']);
      assert.throws(() => s.getSingle('www.example.com'), /2 objects match/);
      assert.deepEqual(names([s.getSingle('blog.example.com') ?? {}]), ['blog']);
      assert.equal(s.getSingle('nope.example.com'), null);
    }
  });

  it('list every object once, in the same order in both stores', () => {
    assert.deepEqual(names(live.list()), ['empty', 'blog', 'shop']);
    assert.deepEqual(names(fixture.list()), names(live.list()));
  });
});

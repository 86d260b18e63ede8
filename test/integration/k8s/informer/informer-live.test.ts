import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { KubeClient } from '../../../../src/k8s/client/kube-client.js';
import { ForbiddenError } from '../../../../src/k8s/client/kube-errors.js';
import type { KubeObject } from '../../../../src/k8s/client/kube-object.js';
import { ResourceClient } from '../../../../src/k8s/client/resource-client.js';
import { resourcePath } from '../../../../src/k8s/client/api-resource.js';
import { Informer } from '../../../../src/k8s/informer/informer.js';
import { KubeListWatchTransport } from '../../../../src/k8s/informer/kube-list-watch-transport.js';
import { listAll } from '../../../../src/k8s/informer/list-pages.js';
import { metadataOnly, OnDemandStore } from '../../../../src/k8s/informer/on-demand-store.js';
import { ControlPlane } from '../../../../src/testing/control-plane.js';

const CONFIGMAPS = { group: '', version: 'v1', resource: 'configmaps', namespaced: true } as const;
const SECRETS = { group: '', version: 'v1', resource: 'secrets', namespaced: true } as const;
const NAMESPACES = { group: '', version: 'v1', resource: 'namespaces', namespaced: false } as const;

async function until(cond: () => boolean, what: string, ms = 15_000): Promise<void> {
  const deadline = Date.now() + ms;
  while (!cond()) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for: ${what}`);
    await new Promise((r) => setTimeout(r, 20));
  }
}

function configMap(ns: string, name: string, extra: Partial<KubeObject> = {}): KubeObject {
  return { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name, namespace: ns }, ...extra };
}

describe('informers against a real kube-apiserver', () => {
  let cp: ControlPlane;
  let client: KubeClient;
  let cms: ResourceClient;
  const errors: unknown[] = [];

  before(async () => {
    cp = await ControlPlane.start();
    client = cp.client();
    cms = new ResourceClient(client, CONFIGMAPS);
    const nss = new ResourceClient(client, NAMESPACES);
    for (const name of ['paging', 'events', 'quiet', 'other', 'secrets'])
      await nss.create({ apiVersion: 'v1', kind: 'Namespace', metadata: { name } });
  });

  after(async () => {
    client.close();
    await cp.stop();
  });

  it('lists 25 objects in pages of 10 with one consistent resourceVersion', async () => {
    await Promise.all(
      Array.from({ length: 25 }, (_, i) => cms.create(configMap('paging', `cm-${i}`))),
    );
    const transport = new KubeListWatchTransport(client, resourcePath(CONFIGMAPS, 'paging'));
    const pages: number[] = [];
    const original = transport.listPage.bind(transport);
    transport.listPage = async (q, s) => {
      const page = await original(q, s);
      pages.push(page.items.length);
      return page;
    };
    const ac = new AbortController();
    const r = await listAll(transport, { pageSize: 10 }, ac.signal);
    assert.deepEqual(pages, [10, 10, 5]);
    // 25 created plus kube-root-ca.crt is not there (no controller-manager), so exactly 25.
    assert.equal(r.items.length, 25);
    assert.ok(r.resourceVersion.length > 0);
  });

  it('syncs, then sees creates, updates and deletes with label selector and managedFields stripped', async () => {
    const ac = new AbortController();
    const informer = Informer.forResource(client, CONFIGMAPS, {
      namespace: 'events',
      labelSelector: 'app=web',
      onError: (e) => errors.push(e),
    });
    const log: string[] = [];
    informer.addHandlers({
      onAdd: (o, initial) =>
        log.push(`add ${o.metadata?.name ?? ''}${initial ? ' (initial)' : ''}`),
      onUpdate: (_old, o) => log.push(`update ${o.metadata?.name ?? ''}`),
      onDelete: (o) => log.push(`delete ${o.metadata?.name ?? ''}`),
    });
    await cms.create(
      configMap('events', 'pre', {
        metadata: { name: 'pre', namespace: 'events', labels: { app: 'web' } },
      }),
    );
    await cms.create(configMap('events', 'unlabelled'));
    const run = informer.run(ac.signal);
    try {
      await informer.waitForSync(ac.signal);
      assert.equal(informer.hasSynced, true);
      const a = await cms.create(
        configMap('events', 'a', {
          metadata: { name: 'a', namespace: 'events', labels: { app: 'web' } },
          data: { v: '1' },
        }),
      );
      await cms.replace({ ...a, data: { v: '2' } });
      await cms.delete('events', 'pre');
      await cms.create(configMap('events', 'ignored'));
      await until(() => log.length >= 4, 'four events');
      assert.deepEqual(log, ['add pre (initial)', 'add a', 'update a', 'delete pre']);
      const stored = informer.store.getSingle('events', 'a');
      assert.deepEqual(stored?.['data'], { v: '2' });
      assert.equal(JSON.stringify(stored).includes('managedFields'), false);
      assert.equal(informer.store.getSingle('events', 'unlabelled'), null);
      assert.equal(informer.resourceVersion.length > 0, true);
    } finally {
      ac.abort();
      await run;
    }
  });

  it('advances its resourceVersion on a BOOKMARK while its own namespace is quiet', async () => {
    const ac = new AbortController();
    const informer = Informer.forResource(client, CONFIGMAPS, {
      namespace: 'quiet',
      // The API server sends a bookmark 2 s before a watch's timeout (or after a minute): keep
      // watches short, but long enough that a loaded server registers the watch in time.
      watchTimeoutSeconds: 6,
      random: () => 0,
      onError: (e) => errors.push(e),
    });
    let events = 0;
    informer.addHandlers({
      onAdd: () => events++,
      onUpdate: () => events++,
      onDelete: () => events++,
    });
    const run = informer.run(ac.signal);
    try {
      await informer.waitForSync(ac.signal);
      const listRv = informer.resourceVersion;
      await cms.create(configMap('other', 'elsewhere'));
      // The API server sends a watcher a bookmark only when the resource's cache has moved past the
      // watcher's resourceVersion, so keep writing elsewhere (bounded: one write a second) until
      // one arrives.
      const deadline = Date.now() + 75_000;
      for (let i = 0; informer.stats.bookmarks < 1; i++) {
        assert.ok(
          Date.now() < deadline,
          `no bookmark within 75 s; informer stats ${JSON.stringify(informer.stats)}`,
        );
        await cms.replace(configMap('other', 'elsewhere', { data: { tick: String(i) } }));
        await new Promise((r) => setTimeout(r, 1_000));
      }
      await until(() => informer.resourceVersion !== listRv, 'rv advanced by a bookmark', 10_000);
      assert.equal(events, 0);
      assert.equal(informer.store.size, 0);
    } finally {
      ac.abort();
      await run;
    }
  });

  it('keeps only metadata for Secrets in on-demand mode and fetches bodies when read', async () => {
    const secrets = new ResourceClient(client, SECRETS);
    await secrets.create({
      apiVersion: 'v1',
      kind: 'Secret',
      metadata: { name: 'tls', namespace: 'secrets' },
      type: 'kubernetes.io/tls',
      data: {
        'tls.crt': Buffer.from('cert').toString('base64'),
        'tls.key': Buffer.from('key').toString('base64'),
      },
    });
    const ac = new AbortController();
    const informer = Informer.forResource(client, SECRETS, {
      namespace: 'secrets',
      indexBy: ['metadata.namespace', 'type'],
      reduce: metadataOnly,
      onError: (e) => errors.push(e),
    });
    const store = new OnDemandStore(informer.store, (ns, name, signal) =>
      secrets.get(ns, name, signal),
    );
    const run = informer.run(ac.signal);
    try {
      await informer.waitForSync(ac.signal);
      assert.equal(informer.store.get('secrets/tls')?.['data'], undefined);
      const found = await store.getSingle('secrets', 'kubernetes.io/tls');
      assert.deepEqual(found?.['data'], { 'tls.crt': 'Y2VydA==', 'tls.key': 'a2V5' });
      assert.equal(JSON.stringify(found).includes('managedFields'), false);
      await store.list();
      assert.equal(store.fetches, 1);
    } finally {
      ac.abort();
      await run;
    }
  });

  it('keeps retrying and reporting ForbiddenError when RBAC denies the list, without syncing', async () => {
    const restricted = cp.client('restricted');
    const denied: unknown[] = [];
    const ac = new AbortController();
    const informer = Informer.forResource(restricted, CONFIGMAPS, {
      namespace: 'events',
      backoff: { initialMs: 10, maxMs: 20 },
      onError: (e) => denied.push(e),
    });
    const run = informer.run(ac.signal);
    try {
      await until(() => denied.length >= 3, 'three reported failures');
      assert.ok(denied.every((e) => e instanceof ForbiddenError));
      assert.equal(informer.hasSynced, false);
    } finally {
      ac.abort();
      await run;
      restricted.close();
    }
  });

  it('reported no errors while the API server was healthy', () => {
    assert.deepEqual(errors.map(String), []);
  });
});

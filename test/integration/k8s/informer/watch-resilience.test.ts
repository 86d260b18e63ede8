/**
 * Acceptance: an informer survives a cut connection resumed from a compacted resourceVersion
 * and a kill -9 of kube-apiserver, ending with a store equal to a fresh list each time.
 * The watch cache is off so a watch from a compacted revision reaches etcd and gets 410.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { GoneError } from '../../../../src/k8s/client/kube-errors.js';
import type { KubeClient } from '../../../../src/k8s/client/kube-client.js';
import type { KubeObject } from '../../../../src/k8s/client/kube-object.js';
import { ResourceClient } from '../../../../src/k8s/client/resource-client.js';
import { resourcePath } from '../../../../src/k8s/client/resource-path.js';
import { Informer } from '../../../../src/k8s/informer/informer.js';
import { KubeListWatchTransport } from '../../../../src/k8s/informer/kube-list-watch-transport.js';
import { ControlPlane } from '../../../../src/testing/control-plane.js';
import { CuttableTransport } from './cuttable-transport.js';

const CONFIGMAPS = { apiVersion: 'v1', resource: 'configmaps', namespaced: true } as const;
const NAMESPACES = { apiVersion: 'v1', resource: 'namespaces', namespaced: false } as const;
const NS = 'resilience';

async function until(
  cond: () => boolean | Promise<boolean>,
  what: string,
  ms = 30_000,
): Promise<void> {
  const deadline = Date.now() + ms;
  while (!(await cond())) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for: ${what}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

function cm(name: string, data: Record<string, string>): KubeObject {
  return { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name, namespace: NS }, data };
}

/** uid/resourceVersion/data per name: what "equal to a fresh list" compares. */
function snapshot(objects: readonly KubeObject[]): Record<string, string> {
  const out: Record<string, string> = {};
  for (const o of objects)
    out[o.metadata?.name ?? ''] =
      `${o.metadata?.uid ?? ''} ${o.metadata?.resourceVersion ?? ''} ${JSON.stringify(o['data'])}`;
  return out;
}

describe('watch resilience against a real kube-apiserver', () => {
  let cp: ControlPlane;
  let writer: KubeClient;
  let reader: KubeClient;
  let cms: ResourceClient;

  before(async () => {
    cp = await ControlPlane.start({
      etcdCompactionInterval: '1s',
      apiServerArgs: ['--watch-cache=false'],
    });
    writer = cp.client();
    reader = cp.client();
    cms = new ResourceClient(writer, CONFIGMAPS);
    await new ResourceClient(writer, NAMESPACES).create({
      apiVersion: 'v1',
      kind: 'Namespace',
      metadata: { name: NS },
    });
  });

  after(async () => {
    writer.close();
    reader.close();
    await cp.stop();
  });

  async function freshList(): Promise<Record<string, string>> {
    return snapshot((await cms.list(NS)).items);
  }

  /** Writes until the API server has compacted past `rv`: a list at `rv` then answers 410. */
  async function waitForCompaction(rv: string): Promise<void> {
    let i = 0;
    await until(async () => {
      await cms.create(cm(`filler-${i++}`, {}));
      const err = await writer
        .request({
          method: 'GET',
          path: resourcePath(CONFIGMAPS, NS),
          query: { resourceVersion: rv, resourceVersionMatch: 'Exact' },
        })
        .then(
          () => undefined,
          (e: unknown) => e,
        );
      return err instanceof GoneError;
    }, `compaction past ${rv}`);
  }

  it('relists after a cut watch resumes from a compacted resourceVersion and matches a fresh list', async () => {
    await cms.create(cm('stays', { v: '1' }));
    await cms.create(cm('updated', { v: '1' }));
    await cms.create(cm('deleted', { v: '1' }));
    await cms.create(cm('recreated', { v: '1' }));
    const transport = new CuttableTransport(
      new KubeListWatchTransport(reader, resourcePath(CONFIGMAPS, NS)),
    );
    const errors: unknown[] = [];
    const informer = new Informer({
      transport,
      onError: (e) => errors.push(e),
      backoff: { initialMs: 50, maxMs: 200 },
    });
    const deletedUids: string[] = [];
    informer.addHandlers({ onDelete: (o) => deletedUids.push(o.metadata?.uid ?? '') });
    const ac = new AbortController();
    const run = informer.run(ac.signal);
    try {
      await informer.waitForSync(ac.signal);
      const staleRv = informer.resourceVersion;
      const oldRecreatedUid = informer.store.get(`${NS}/recreated`)?.metadata?.uid;
      transport.cut();

      const upd = await cms.get(NS, 'updated');
      await cms.replace({ ...upd, data: { v: '2' } });
      await cms.delete(NS, 'deleted');
      await cms.delete(NS, 'recreated');
      await cms.create(cm('recreated', { v: '2' }));
      await cms.create(cm('created', { v: '1' }));
      await waitForCompaction(staleRv);

      const listsBefore = informer.stats.lists;
      transport.restore();
      const expected = await freshList();
      await until(() => informer.stats.lists > listsBefore, 'a relist');
      await until(
        async () =>
          JSON.stringify(snapshot(informer.store.list())) === JSON.stringify(await freshList()),
        'store equal to a fresh list',
      );

      assert.deepEqual(snapshot(informer.store.list()), await freshList());
      assert.equal(informer.store.get(`${NS}/created`)?.['data'] !== undefined, true);
      assert.deepEqual(informer.store.get(`${NS}/updated`)?.['data'], { v: '2' });
      assert.equal(informer.store.get(`${NS}/deleted`), undefined);
      assert.notEqual(informer.store.get(`${NS}/recreated`)?.metadata?.uid, oldRecreatedUid);
      assert.ok(oldRecreatedUid && deletedUids.includes(oldRecreatedUid));
      assert.ok(transport.watchedFrom.includes(staleRv));
      assert.ok(
        errors.some((e) => e instanceof GoneError),
        'the stale watch was answered with 410',
      );
      assert.ok(Object.keys(expected).length > 0);
    } finally {
      ac.abort();
      await run;
    }
  });

  it('survives kill -9 of kube-apiserver and sees changes made right after the restart', async () => {
    const transport = new KubeListWatchTransport(reader, resourcePath(CONFIGMAPS, NS));
    const errors: unknown[] = [];
    const informer = new Informer({
      transport,
      onError: (e) => errors.push(e),
      backoff: { initialMs: 50, maxMs: 500 },
    });
    const ac = new AbortController();
    const run = informer.run(ac.signal);
    try {
      await informer.waitForSync(ac.signal);
      const server = cp.server;
      await cp.restartApiServer('SIGKILL');
      assert.equal(cp.server, server, 'same port after restart');
      await cms.create(cm('after-restart', { v: '1' }));
      const victim = (await cms.list(NS)).items.find((o) => o.metadata?.name === 'stays');
      assert.ok(victim);
      await cms.replace({ ...victim, data: { v: 'after-restart' } });
      await cms.delete(NS, 'created');
      await until(
        async () =>
          JSON.stringify(snapshot(informer.store.list())) === JSON.stringify(await freshList()),
        'store equal to a fresh list',
      );
      assert.deepEqual(informer.store.get(`${NS}/stays`)?.['data'], { v: 'after-restart' });
      assert.ok(informer.store.get(`${NS}/after-restart`));
      assert.equal(informer.store.get(`${NS}/created`), undefined);
      assert.ok(errors.length > 0, 'the broken connection was reported');
    } finally {
      ac.abort();
      await run;
    }
  });
});

/**
 * The two watch-fault scenarios of the acceptance criteria, shared by the test files that run
 * them with the apiserver's watch cache off (watches hit etcd: a compacted revision is 410) and
 * on (the production default: the cacher answers).
 */
import assert from 'node:assert/strict';
import { HapticError } from '../../../../src/core/errors.js';
import type { KubeClient } from '../../../../src/k8s/client/kube-client.js';
import { KubeUnreachableError } from '../../../../src/k8s/client/kube-errors.js';
import type { KubeObject } from '../../../../src/k8s/client/kube-object.js';
import { ResourceClient } from '../../../../src/k8s/client/resource-client.js';
import { resourcePath } from '../../../../src/k8s/client/api-resource.js';
import { Informer } from '../../../../src/k8s/informer/informer.js';
import { KubeListWatchTransport } from '../../../../src/k8s/informer/kube-list-watch-transport.js';
import type { ControlPlane } from '../../../../src/testing/control-plane.js';
import { CuttableTransport } from './cuttable-transport.js';

export const CONFIGMAPS = {
  group: '',
  version: 'v1',
  resource: 'configmaps',
  namespaced: true,
} as const;
const NAMESPACES = { group: '', version: 'v1', resource: 'namespaces', namespaced: false } as const;

/** Clients and namespace of one scenario run. */
export interface ScenarioContext {
  readonly cp: ControlPlane;
  /** Makes the changes and the fresh lists. */
  readonly writer: KubeClient;
  /** Used by the informer only. */
  readonly reader: KubeClient;
  readonly ns: string;
}

export async function until(
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

function cm(ns: string, name: string, data: Record<string, string>): KubeObject {
  return { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name, namespace: ns }, data };
}

/** uid, resourceVersion and data per name: what "equal to a fresh list" compares. */
export function snapshot(objects: readonly KubeObject[]): Record<string, string> {
  const out: Record<string, string> = {};
  for (const o of objects)
    out[o.metadata?.name ?? ''] =
      `${o.metadata?.uid ?? ''} ${o.metadata?.resourceVersion ?? ''} ${JSON.stringify(o['data'])}`;
  return out;
}

export async function createNamespace(client: KubeClient, ns: string): Promise<void> {
  await new ResourceClient(client, NAMESPACES).create({
    apiVersion: 'v1',
    kind: 'Namespace',
    metadata: { name: ns },
  });
}

async function freshList(ctx: ScenarioContext): Promise<Record<string, string>> {
  return snapshot((await new ResourceClient(ctx.writer, CONFIGMAPS).list(ctx.ns)).items);
}

async function storeMatchesFreshList(ctx: ScenarioContext, informer: Informer): Promise<void> {
  await until(
    async () =>
      JSON.stringify(snapshot(informer.store.list())) === JSON.stringify(await freshList(ctx)),
    'store equal to a fresh list',
  );
  assert.deepEqual(snapshot(informer.store.list()), await freshList(ctx));
}

/**
 * Writes until etcd has compacted past `rv`. Asks etcd itself (its JSON gateway), because with
 * the watch cache on the API server may still answer reads at `rv` from cache snapshots. The
 * test passes `rv` through as etcd's revision: true of this apiserver, never assumed by src/.
 */
async function waitForCompaction(ctx: ScenarioContext, rv: string): Promise<void> {
  const cms = new ResourceClient(ctx.writer, CONFIGMAPS);
  let i = 0;
  await until(async () => {
    await cms.create(cm(ctx.ns, `filler-${i++}`, {}));
    const res = await fetch(`${ctx.cp.etcdUrl}/v3/kv/range`, {
      method: 'POST',
      body: JSON.stringify({ key: Buffer.from('/registry').toString('base64'), revision: rv }),
      signal: AbortSignal.timeout(5_000),
    });
    const body = (await res.json()) as { error?: string; message?: string };
    return /compacted/.test(`${body.error ?? ''} ${body.message ?? ''}`);
  }, `compaction past ${rv}`);
}

/**
 * Cuts the informer's connection, creates, updates, deletes and re-creates objects, waits for
 * etcd to compact past the informer's resourceVersion, restores the connection and checks the
 * store against a fresh list. Returns the errors the informer reported.
 */
export async function cutCompactAndResume(ctx: ScenarioContext): Promise<unknown[]> {
  const cms = new ResourceClient(ctx.writer, CONFIGMAPS);
  for (const name of ['stays', 'updated', 'deleted', 'recreated'])
    await cms.create(cm(ctx.ns, name, { v: '1' }));
  const transport = new CuttableTransport(
    new KubeListWatchTransport(ctx.reader, resourcePath(CONFIGMAPS, ctx.ns)),
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
    const oldUid = informer.store.get(`${ctx.ns}/recreated`)?.metadata?.uid;
    transport.cut();

    const upd = await cms.get(ctx.ns, 'updated');
    await cms.replace({ ...upd, data: { v: '2' } });
    await cms.delete(ctx.ns, 'deleted');
    await cms.delete(ctx.ns, 'recreated');
    await cms.create(cm(ctx.ns, 'recreated', { v: '2' }));
    await cms.create(cm(ctx.ns, 'created', { v: '1' }));
    await waitForCompaction(ctx, staleRv);

    transport.restore();
    await storeMatchesFreshList(ctx, informer);
    assert.deepEqual(informer.store.get(`${ctx.ns}/updated`)?.['data'], { v: '2' });
    assert.deepEqual(informer.store.get(`${ctx.ns}/created`)?.['data'], { v: '1' });
    assert.equal(informer.store.get(`${ctx.ns}/deleted`), undefined);
    const newUid = informer.store.get(`${ctx.ns}/recreated`)?.metadata?.uid;
    assert.ok(oldUid && newUid && newUid !== oldUid, 'the re-created object has its new uid');
    assert.ok(deletedUids.includes(oldUid), 'the old uid was reported deleted');
    assert.ok(transport.watchedFrom.includes(staleRv), 'the watch resumed from the stale version');
    return errors;
  } finally {
    ac.abort();
    await run;
  }
}

/**
 * Kills kube-apiserver with SIGKILL under a synced informer, restarts it on the same etcd,
 * changes objects right after the restart and checks the store against a fresh list.
 */
export async function killAndRestart(ctx: ScenarioContext): Promise<unknown[]> {
  const cms = new ResourceClient(ctx.writer, CONFIGMAPS);
  await cms.create(cm(ctx.ns, 'before-kill', { v: '1' }));
  await cms.create(cm(ctx.ns, 'doomed', { v: '1' }));
  const errors: unknown[] = [];
  const informer = new Informer({
    transport: new KubeListWatchTransport(ctx.reader, resourcePath(CONFIGMAPS, ctx.ns)),
    onError: (e) => errors.push(e),
    backoff: { initialMs: 50, maxMs: 500 },
  });
  const ac = new AbortController();
  const run = informer.run(ac.signal);
  try {
    await informer.waitForSync(ac.signal);
    await ctx.cp.restartApiServer('SIGKILL');
    await cms.create(cm(ctx.ns, 'after-restart', { v: '1' }));
    const victim = await cms.get(ctx.ns, 'before-kill');
    await cms.replace({ ...victim, data: { v: 'after-restart' } });
    await cms.delete(ctx.ns, 'doomed');
    await storeMatchesFreshList(ctx, informer);
    assert.deepEqual(informer.store.get(`${ctx.ns}/before-kill`)?.['data'], { v: 'after-restart' });
    assert.ok(informer.store.get(`${ctx.ns}/after-restart`));
    assert.equal(informer.store.get(`${ctx.ns}/doomed`), undefined);
    assert.ok(
      errors.some((e) => e instanceof KubeUnreachableError),
      'the broken connection was reported as KubeUnreachableError, not swallowed',
    );
    assert.deepEqual(
      errors.filter((e) => !(e instanceof HapticError)).map(String),
      [],
      'every reported error is typed',
    );
    return errors;
  } finally {
    ac.abort();
    await run;
  }
}

import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { KubeClient } from '../../../../src/k8s/client/kube-client.js';
import { loadKubeConfigFile } from '../../../../src/k8s/client/kube-config.js';
import {
  ConflictError,
  ForbiddenError,
  InvalidError,
  KubeUnreachableError,
  NotFoundError,
  UnauthorizedError,
} from '../../../../src/k8s/client/kube-errors.js';
import type { KubeObject } from '../../../../src/k8s/client/kube-object.js';
import { ResourceClient } from '../../../../src/k8s/client/resource-client.js';
import { ControlPlane } from '../../../../src/testing/control-plane.js';
import { freePort } from '../../../../src/testing/free-port.js';

const CONFIGMAPS = { group: '', version: 'v1', resource: 'configmaps', namespaced: true } as const;
const NAMESPACES = { group: '', version: 'v1', resource: 'namespaces', namespaced: false } as const;
const NS = 'client-errors';

describe('KubeClient against a real kube-apiserver', () => {
  let cp: ControlPlane;
  let admin: KubeClient;
  let cms: ResourceClient;
  const unhandled: unknown[] = [];
  const onUnhandled = (reason: unknown): void => {
    unhandled.push(reason);
  };

  before(async () => {
    process.on('unhandledRejection', onUnhandled);
    cp = await ControlPlane.start();
    admin = new KubeClient(loadKubeConfigFile(cp.kubeconfigPath), { qps: 0 });
    cms = new ResourceClient(admin, CONFIGMAPS);
    await new ResourceClient(admin, NAMESPACES).create({
      apiVersion: 'v1',
      kind: 'Namespace',
      metadata: { name: NS },
    });
  });

  after(async () => {
    process.off('unhandledRejection', onUnhandled);
    admin.close();
    await cp.stop();
  });

  it('creates, reads, lists, replaces and deletes through the kubeconfig the harness wrote', async () => {
    const created = await cms.create({
      apiVersion: 'v1',
      kind: 'ConfigMap',
      metadata: { name: 'crud', namespace: NS },
      data: { a: '1' },
    });
    const uid = created.metadata?.uid;
    assert.ok(uid);
    assert.equal((await cms.get(NS, 'crud')).metadata?.uid, uid);
    const replaced = await cms.replace({ ...created, data: { a: '2' } });
    assert.notEqual(replaced.metadata?.resourceVersion, created.metadata.resourceVersion);
    const list = await cms.list(NS, { fieldSelector: 'metadata.name=crud' });
    assert.deepEqual(
      list.items.map((i) => i.metadata?.name),
      ['crud'],
    );
    await cms.delete(NS, 'crud');
    await assert.rejects(cms.get(NS, 'crud'), NotFoundError);
  });

  it('maps 404 on a missing object to NotFoundError (terminal)', async () => {
    const err = await cms.get(NS, 'absent').catch((e: unknown) => e);
    assert.ok(err instanceof NotFoundError);
    assert.equal(err.statusCode, 404);
    assert.equal(err.reason, 'NotFound');
    assert.equal(err.isTerminal, true);
  });

  it('maps 409 on create of an existing name to ConflictError already-exists', async () => {
    const obj: KubeObject = {
      apiVersion: 'v1',
      kind: 'ConfigMap',
      metadata: { name: 'dup', namespace: NS },
    };
    await cms.create(obj);
    const err = await cms.create(obj).catch((e: unknown) => e);
    assert.ok(err instanceof ConflictError);
    assert.equal(err.conflictKind, 'already-exists');
  });

  it('maps 409 on a stale resourceVersion to ConflictError optimistic-lock', async () => {
    const first = await cms.create({
      apiVersion: 'v1',
      kind: 'ConfigMap',
      metadata: { name: 'lock', namespace: NS },
      data: { v: '1' },
    });
    await cms.replace({ ...first, data: { v: '2' } });
    const err = await cms.replace({ ...first, data: { v: '3' } }).catch((e: unknown) => e);
    assert.ok(err instanceof ConflictError);
    assert.equal(err.conflictKind, 'optimistic-lock');
  });

  it('maps 422 on an invalid object to InvalidError with the causes', async () => {
    const err = await cms
      .create({
        apiVersion: 'v1',
        kind: 'ConfigMap',
        metadata: { name: 'Not_Valid', namespace: NS },
      })
      .catch((e: unknown) => e);
    assert.ok(err instanceof InvalidError);
    assert.equal(err.statusCode, 422);
    assert.ok(err.causes.some((c) => c.field === 'metadata.name'));
  });

  it('maps 401 for a wrong token to UnauthorizedError with a hint', async () => {
    const bad = new KubeClient({ ...cp.connection('admin'), token: 'wrong-token' }, { qps: 0 });
    try {
      const err = await new ResourceClient(bad, CONFIGMAPS).list(NS).catch((e: unknown) => e);
      assert.ok(err instanceof UnauthorizedError);
      assert.equal(err.statusCode, 401);
      assert.match(err.message, /check the token/);
    } finally {
      bad.close();
    }
  });

  it('re-reads a rotated token file instead of keeping the first token', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'haptic-token-'));
    const tokenFile = join(dir, 'token');
    writeFileSync(tokenFile, 'stale-token\n');
    const rotating = new KubeClient(
      { server: cp.server, caPem: cp.caPem, tokenFile },
      { qps: 0, tokenRefreshMs: 0 },
    );
    try {
      const rc = new ResourceClient(rotating, CONFIGMAPS);
      await assert.rejects(rc.list(NS), UnauthorizedError);
      writeFileSync(tokenFile, `${cp.token('admin')}\n`);
      const list = await rc.list(NS);
      assert.ok(Array.isArray(list.items));
    } finally {
      rotating.close();
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('maps 403 for the restricted user without RBAC to ForbiddenError with a hint', async () => {
    const restricted = cp.client('restricted');
    try {
      const err = await new ResourceClient(restricted, CONFIGMAPS)
        .list(NS)
        .catch((e: unknown) => e);
      assert.ok(err instanceof ForbiddenError);
      assert.equal(err.statusCode, 403);
      assert.match(err.message, /haptic-controller/);
      assert.match(err.message, /Role/);
    } finally {
      restricted.close();
    }
  });

  it('turns a refused connection into KubeUnreachableError, without an unhandled rejection', async () => {
    const port = await freePort();
    const nowhere = new KubeClient({ server: `https://127.0.0.1:${port}`, token: 'x' }, { qps: 0 });
    try {
      const err = await new ResourceClient(nowhere, CONFIGMAPS).list(NS).catch((e: unknown) => e);
      assert.ok(err instanceof KubeUnreachableError);
      assert.match(err.message, /ECONNREFUSED/);
      const streamErr = await nowhere
        .stream({ method: 'GET', path: '/api/v1/configmaps', query: { watch: '1' } })
        .catch((e: unknown) => e);
      assert.ok(streamErr instanceof KubeUnreachableError);
      await new Promise((r) => setImmediate(r));
      assert.deepEqual(unhandled, []);
    } finally {
      nowhere.close();
    }
  });
});

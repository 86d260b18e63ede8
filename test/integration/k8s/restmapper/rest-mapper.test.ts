import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { KubeClient } from '../../../../src/k8s/client/kube-client.js';
import { refreshOnCrdChanges } from '../../../../src/k8s/restmapper/refresh-on-crd-changes.js';
import { UnknownKindError } from '../../../../src/k8s/restmapper/rest-mapper-errors.js';
import { RestMapper } from '../../../../src/k8s/restmapper/rest-mapper.js';
import { ControlPlane } from '../../../../src/testing/control-plane.js';
import { testCrd } from '../../../support/probe-crds.js';

/** A kind whose plural no English-rule guesser would produce. */
function octopusCrd(): object {
  return testCrd({ group: 'zoo.example.com', plural: 'octopodes', kind: 'Octopus' });
}

async function until(cond: () => boolean, what: string, ms = 30_000): Promise<void> {
  const deadline = Date.now() + ms;
  while (!cond()) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for: ${what}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

describe('RestMapper against a real kube-apiserver', () => {
  let cp: ControlPlane;
  let client: KubeClient;

  before(async () => {
    cp = await ControlPlane.start();
    client = cp.client();
  });

  after(async () => {
    client.close();
    await cp.stop();
  });

  it('maps core and group kinds to plural, scope, status subresource and verbs', async () => {
    const mapper = new RestMapper(client);
    const cm = await mapper.mapping('v1', 'ConfigMap');
    assert.deepEqual(
      { resource: cm.resource, namespaced: cm.namespaced, hasStatus: cm.hasStatus },
      { resource: 'configmaps', namespaced: true, hasStatus: false },
    );
    const deploy = await mapper.mapping('apps/v1', 'Deployment');
    assert.equal(deploy.resource, 'deployments');
    assert.equal(deploy.hasStatus, true);
    assert.ok(deploy.verbs.includes('watch') && deploy.verbs.includes('patch'));
    const ns = await mapper.mapping('v1', 'Namespace');
    assert.deepEqual([ns.resource, ns.namespaced, ns.hasStatus], ['namespaces', false, true]);
    const ingress = await mapper.mapping('networking.k8s.io/v1', 'Ingress');
    assert.deepEqual([ingress.resource, ingress.hasStatus], ['ingresses', true]);
    assert.equal(mapper.refreshCount, 1);
  });

  it('throws UnknownKindError for an unknown kind and rate-limits the refresh a miss triggers', async () => {
    let now = 0;
    const mapper = new RestMapper(client, { minRefreshIntervalMs: 10_000, now: () => now });
    await assert.rejects(mapper.mapping('v1', 'Confgmap'), UnknownKindError);
    await assert.rejects(mapper.mapping('zoo.example.com/v1', 'Octopus'), (e: unknown) => {
      assert.ok(e instanceof UnknownKindError);
      assert.match(e.message, /CRD is installed/);
      return true;
    });
    assert.equal(mapper.refreshCount, 1);
    now = 10_000;
    await assert.rejects(mapper.mapping('v1', 'Confgmap'), UnknownKindError);
    assert.equal(mapper.refreshCount, 2);
  });

  it('finds a CRD installed later on a miss, with its declared plural', async () => {
    const mapper = new RestMapper(client, { minRefreshIntervalMs: 0 });
    await mapper.refresh();
    assert.equal(mapper.cached('zoo.example.com/v1', 'Octopus'), undefined);
    await cp.installCrds([octopusCrd()]);
    let mapping;
    for (let i = 0; i < 50 && !mapping; i++) {
      mapping = await mapper.mapping('zoo.example.com/v1', 'Octopus').catch(() => undefined);
      if (!mapping) await new Promise((r) => setTimeout(r, 100));
    }
    assert.ok(mapping, 'the CRD became mappable');
    assert.deepEqual(
      [mapping.resource, mapping.namespaced, mapping.hasStatus],
      ['octopodes', true, true],
    );
  });

  it('drops the mapping of a deleted CRD when watching CRD changes', async () => {
    const mapper = new RestMapper(client, { minRefreshIntervalMs: 60_000 });
    await mapper.refresh();
    assert.ok(mapper.cached('zoo.example.com/v1', 'Octopus'));
    const errors: unknown[] = [];
    const ac = new AbortController();
    const watching = refreshOnCrdChanges(client, mapper, ac.signal, {
      debounceMs: 50,
      onError: (e) => errors.push(e),
    });
    try {
      await client.request({
        method: 'DELETE',
        path: '/apis/apiextensions.k8s.io/v1/customresourcedefinitions/octopodes.zoo.example.com',
      });
      await until(
        () => mapper.cached('zoo.example.com/v1', 'Octopus') === undefined,
        'mapping dropped',
      );
      await assert.rejects(mapper.mapping('zoo.example.com/v1', 'Octopus'), UnknownKindError);
      assert.deepEqual(errors, []);
    } finally {
      ac.abort();
      await watching;
    }
  });
});

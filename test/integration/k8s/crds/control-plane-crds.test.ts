import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { projectCrds } from '../../../../src/k8s/crds/project-crds.js';
import { ControlPlane } from '../../../../src/testing/control-plane.js';

describe('ControlPlane test harness', { timeout: 120_000 }, () => {
  let cp: ControlPlane;

  before(async () => {
    cp = await ControlPlane.start();
  });

  after(async () => {
    await cp.stop();
  });

  it('installs the project CRDs by default, each Established and serving its kind', async () => {
    const client = cp.client('admin');
    try {
      for (const crd of projectCrds()) {
        const live = await client.request<{
          status: { conditions: { type: string; status: string }[] };
        }>({
          method: 'GET',
          path: `/apis/apiextensions.k8s.io/v1/customresourcedefinitions/${crd.metadata.name}`,
        });
        assert.ok(
          live.status.conditions.some((c) => c.type === 'Established' && c.status === 'True'),
          crd.metadata.name,
        );
        const list = await client.request<{ kind: string; items: unknown[] }>({
          method: 'GET',
          path: `/apis/haproxy-haptic.org/v1alpha1/${crd.spec.names.plural}`,
        });
        assert.equal(list.kind, `${crd.spec.names.kind}List`);
        assert.deepEqual(list.items, []);
      }
    } finally {
      client.close();
    }
  });
});

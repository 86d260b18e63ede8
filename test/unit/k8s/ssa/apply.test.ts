import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { KubeRequest } from '../../../../src/k8s/client/kube-client.js';
import type { ApiResource } from '../../../../src/k8s/client/api-resource.js';
import { apply } from '../../../../src/k8s/ssa/apply.js';
import {
  InvalidApplyObjectError,
  InvalidFieldManagerError,
} from '../../../../src/k8s/ssa/ssa-errors.js';

class FakeKubeRequester {
  readonly requests: KubeRequest[] = [];
  request<T>(req: KubeRequest): Promise<T> {
    this.requests.push(req);
    return Promise.resolve({ ok: true } as T);
  }
}

const routes: ApiResource = {
  group: 'gateway.networking.k8s.io',
  version: 'v1',
  resource: 'httproutes',
  namespaced: true,
};
const obj = {
  apiVersion: 'gateway.networking.k8s.io/v1',
  kind: 'HTTPRoute',
  metadata: { name: 'r', namespace: 'ns' },
};

describe('apply', () => {
  it('sends a JSON body as application/apply-patch+yaml with manager, force, dry-run and validation parameters', async () => {
    const fake = new FakeKubeRequester();
    await apply(fake, routes, obj, {
      fieldManager: 'haptic-test',
      force: true,
      subresource: 'status',
      dryRun: true,
      fieldValidation: 'Strict',
    });
    const [req] = fake.requests;
    assert.ok(req);
    assert.equal(req.method, 'PATCH');
    assert.equal(req.path, '/apis/gateway.networking.k8s.io/v1/namespaces/ns/httproutes/r/status');
    assert.equal(req.contentType, 'application/apply-patch+yaml');
    assert.deepEqual(req.query, {
      fieldManager: 'haptic-test',
      force: 'true',
      dryRun: 'All',
      fieldValidation: 'Strict',
    });
    assert.deepEqual(req.body, obj);
  });

  it('leaves force and dryRun out when not asked for', async () => {
    const fake = new FakeKubeRequester();
    await apply(fake, routes, obj, { fieldManager: 'm', force: false });
    assert.equal(fake.requests[0]?.query?.['force'], undefined);
    assert.equal(fake.requests[0]?.query?.['dryRun'], undefined);
    assert.equal(
      fake.requests[0]?.path,
      '/apis/gateway.networking.k8s.io/v1/namespaces/ns/httproutes/r',
    );
  });

  it('refuses a bad manager name or an object without identity before any request', async () => {
    const fake = new FakeKubeRequester();
    await assert.rejects(
      apply(fake, routes, obj, { fieldManager: 'x'.repeat(129), force: true }),
      InvalidFieldManagerError,
    );
    await assert.rejects(
      apply(fake, routes, { ...obj, metadata: { name: 'r' } }, { fieldManager: 'm', force: true }),
      InvalidApplyObjectError,
    );
    await assert.rejects(
      apply(fake, routes, { ...obj, kind: '' }, { fieldManager: 'm', force: true }),
      InvalidApplyObjectError,
    );
    assert.equal(fake.requests.length, 0);
  });
});

import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import {
  apiResource,
  apiVersionOf,
  resourcePath,
  splitApiVersion,
} from '../../../../src/k8s/client/api-resource.js';

const cms = apiResource('v1', 'configmaps', true);
const nodes = apiResource('v1', 'nodes', false);
const routes = apiResource('gateway.networking.k8s.io/v1', 'httproutes', true);
const crds = apiResource('apiextensions.k8s.io/v1', 'customresourcedefinitions', false);

describe('resourcePath', () => {
  it('builds core and group paths, namespaced and across namespaces', () => {
    assert.equal(resourcePath(cms), '/api/v1/configmaps');
    assert.equal(resourcePath(cms, ''), '/api/v1/configmaps');
    assert.equal(resourcePath(cms, 'ns'), '/api/v1/namespaces/ns/configmaps');
    assert.equal(resourcePath(cms, 'ns', 'a b'), '/api/v1/namespaces/ns/configmaps/a%20b');
    assert.equal(
      resourcePath(routes, 'x', 'r', 'status'),
      '/apis/gateway.networking.k8s.io/v1/namespaces/x/httproutes/r/status',
    );
  });

  it('ignores a namespace for a cluster-scoped resource', () => {
    assert.equal(
      resourcePath(crds, 'ns', 'c'),
      '/apis/apiextensions.k8s.io/v1/customresourcedefinitions/c',
    );
    assert.equal(resourcePath(nodes, 'ignored', 'n1', 'status'), '/api/v1/nodes/n1/status');
  });

  it('appends a subresource only to an object path', () => {
    assert.equal(resourcePath(cms, 'ns', undefined, 'status'), '/api/v1/namespaces/ns/configmaps');
  });
});

describe('apiVersion of a descriptor', () => {
  it('round-trips core and group apiVersions', () => {
    assert.deepEqual(splitApiVersion('v1'), { group: '', version: 'v1' });
    assert.deepEqual(splitApiVersion('apps/v1'), { group: 'apps', version: 'v1' });
    assert.equal(apiVersionOf(cms), 'v1');
    assert.equal(apiVersionOf(routes), 'gateway.networking.k8s.io/v1');
  });
});

import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { resourcePath } from '../../../../src/k8s/client/resource-path.js';

const cms = { apiVersion: 'v1', resource: 'configmaps', namespaced: true };
const routes = {
  apiVersion: 'gateway.networking.k8s.io/v1',
  resource: 'httproutes',
  namespaced: true,
};
const crds = {
  apiVersion: 'apiextensions.k8s.io/v1',
  resource: 'customresourcedefinitions',
  namespaced: false,
};

describe('resourcePath', () => {
  it('builds core and group paths, namespaced and across namespaces', () => {
    assert.equal(resourcePath(cms), '/api/v1/configmaps');
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
  });
});

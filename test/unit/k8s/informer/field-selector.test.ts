import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { parseFieldSelector } from '../../../../src/k8s/informer/field-selector.js';
import { ObjectPathError } from '../../../../src/core/object-index/object-index-errors.js';

const svc = { metadata: { name: 'web', namespace: 'a' }, spec: { type: 'ClusterIP' } };

describe('field selectors (client side)', () => {
  it('matches equality with = and ==', () => {
    assert.equal(parseFieldSelector('metadata.name=web').matches(svc), true);
    assert.equal(parseFieldSelector('metadata.name==web').matches(svc), true);
    assert.equal(parseFieldSelector('metadata.name=db').matches(svc), false);
  });

  it('matches inequality with !=', () => {
    assert.equal(parseFieldSelector('spec.type!=ExternalName').matches(svc), true);
    assert.equal(parseFieldSelector('spec.type!=ClusterIP').matches(svc), false);
  });

  it('ANDs comma-separated terms', () => {
    assert.equal(
      parseFieldSelector('metadata.namespace=a, spec.type=ClusterIP').matches(svc),
      true,
    );
    assert.equal(parseFieldSelector('metadata.namespace=a,spec.type=NodePort').matches(svc), false);
  });

  it("compares a missing field as ''", () => {
    assert.equal(parseFieldSelector('spec.clusterIP=').matches(svc), true);
    assert.equal(parseFieldSelector('spec.clusterIP!=').matches(svc), false);
  });

  it('rejects a term without an operator', () => {
    assert.throws(() => parseFieldSelector('metadata.name'), ObjectPathError);
  });
});

import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { ObjectPathError } from '../../../../src/core/object-index/object-index-errors.js';
import {
  compileObjectPath,
  deleteAtPath,
  pathKeys,
} from '../../../../src/core/object-index/object-path.js';

const ingress = {
  metadata: {
    namespace: 'shop',
    name: 'web',
    labels: { 'kubernetes.io/service-name': 'svc-a' },
    managedFields: [{ manager: 'kubectl' }],
  },
  spec: { rules: [{ host: 'a.example' }, { host: 'b.example' }, { host: 'a.example' }], port: 80 },
};

describe('object paths', () => {
  it('reads dotted keys, with or without a leading $, . or {} wrapper', () => {
    for (const expr of [
      'metadata.namespace',
      '.metadata.namespace',
      '$.metadata.namespace',
      '{.metadata.namespace}',
    ])
      assert.deepEqual(pathKeys(ingress, compileObjectPath(expr)), ['shop'], expr);
  });

  it('reads label keys containing dots and slashes through quoted brackets', () => {
    const p = compileObjectPath("metadata.labels['kubernetes.io/service-name']");
    assert.deepEqual(pathKeys(ingress, p), ['svc-a']);
    assert.deepEqual(
      pathKeys(ingress, compileObjectPath('metadata.labels["kubernetes.io/service-name"]')),
      ['svc-a'],
    );
  });

  it('yields one deduplicated key per wildcard match', () => {
    assert.deepEqual(pathKeys(ingress, compileObjectPath('spec.rules[*].host')), [
      'a.example',
      'b.example',
    ]);
    assert.deepEqual(pathKeys(ingress, compileObjectPath('spec.rules[1].host')), ['b.example']);
  });

  it("yields [''] for a missing field and stringifies numbers", () => {
    assert.deepEqual(pathKeys(ingress, compileObjectPath('metadata.labels.missing')), ['']);
    assert.deepEqual(pathKeys(ingress, compileObjectPath('spec.port')), ['80']);
  });

  it('rejects filters, slices, recursive descent and empty paths with ObjectPathError', () => {
    for (const bad of ['spec.rules[?(@.host)]', 'spec.rules[0:2]', 'spec..host', '', "labels['x"])
      assert.throws(() => compileObjectPath(bad), ObjectPathError, bad);
  });

  it('deletes the field a path reaches, also under a wildcard', () => {
    const o = structuredClone(ingress) as Record<string, unknown> & typeof ingress;
    deleteAtPath(o, compileObjectPath('metadata.managedFields'));
    deleteAtPath(o, compileObjectPath('spec.rules[*].host'));
    assert.equal('managedFields' in o.metadata, false);
    assert.deepEqual(o.spec.rules, [{}, {}, {}]);
  });
});

import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { shouldEnqueue } from '../../../../src/k8s/predicate/should-enqueue.js';

const base = {
  metadata: {
    name: 'x',
    generation: 3,
    resourceVersion: '100',
    annotations: { keep: 'a' } as Record<string, string>,
    managedFields: [{ manager: 'a' }],
  },
  spec: { foo: 1 },
  status: { conditions: [{ type: 'Ready', status: 'True' }] },
};

describe('shouldEnqueue', () => {
  it('enqueues when metadata.generation changes', () => {
    assert.equal(
      shouldEnqueue(base, { ...base, metadata: { ...base.metadata, generation: 4 } }),
      true,
    );
  });

  it('ignores a status-only update with a new resourceVersion', () => {
    const next = {
      ...base,
      metadata: { ...base.metadata, resourceVersion: '101' },
      status: { conditions: [{ type: 'Ready', status: 'False' }] },
    };
    assert.equal(shouldEnqueue(base, next), false);
  });

  it('ignores a managedFields-only update', () => {
    const next = {
      ...base,
      metadata: { ...base.metadata, resourceVersion: '102', managedFields: [{ manager: 'b' }] },
    };
    assert.equal(shouldEnqueue(base, next), false);
  });

  it('ignores a resourceVersion-only update', () => {
    const next = { ...base, metadata: { ...base.metadata, resourceVersion: '103' } };
    assert.equal(shouldEnqueue(base, next), false);
  });

  it('ignores changes of other annotations', () => {
    const next = { ...base, metadata: { ...base.metadata, annotations: { keep: 'b' } } };
    assert.equal(shouldEnqueue(base, next), false);
  });

  it('enqueues when the request annotation is set, changed or removed', () => {
    const set = {
      ...base,
      metadata: { ...base.metadata, annotations: { 'haptic.io/reconcile-at': 't1' } },
    };
    const changed = {
      ...base,
      metadata: { ...base.metadata, annotations: { 'haptic.io/reconcile-at': 't2' } },
    };
    assert.equal(shouldEnqueue(base, set), true);
    assert.equal(shouldEnqueue(set, changed), true);
    assert.equal(shouldEnqueue(changed, base), true);
  });

  it('honours a custom request annotation and then ignores the default one', () => {
    const opts = { requestAnnotation: 'example.com/poke' };
    const poked = {
      ...base,
      metadata: { ...base.metadata, annotations: { 'example.com/poke': '1' } },
    };
    const defaultOnly = {
      ...base,
      metadata: { ...base.metadata, annotations: { 'haptic.io/reconcile-at': '1' } },
    };
    assert.equal(shouldEnqueue(base, poked, opts), true);
    assert.equal(shouldEnqueue(base, defaultOnly, opts), false);
  });

  it('treats objects without metadata as unchanged', () => {
    assert.equal(shouldEnqueue({}, {}), false);
  });
});

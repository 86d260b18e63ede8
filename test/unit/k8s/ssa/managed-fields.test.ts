import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import {
  canonicalJson,
  extractOwned,
  findManagedFields,
} from '../../../../src/k8s/ssa/managed-fields.js';

const live = {
  apiVersion: 'test.haptic.io/v1',
  kind: 'Probe',
  metadata: {
    name: 'p',
    labels: { a: '1' },
    managedFields: [
      {
        manager: 'writer-a',
        operation: 'Apply',
        subresource: 'status',
        fieldsV1: {
          'f:status': {
            'f:conditions': {
              'k:{"type":"Ready"}': {
                '.': {},
                'f:type': {},
                'f:status': {},
                'f:reason': {},
              },
            },
            'f:addresses': {},
            'f:listeners': {
              'k:{"name":"http"}': { '.': {}, 'f:name': {}, 'f:attachedRoutes': {} },
            },
          },
        },
      },
      {
        manager: 'writer-a',
        operation: 'Apply',
        fieldsV1: { 'f:metadata': { 'f:labels': { 'f:a': {} } }, 'f:spec': { 'f:foo': {} } },
      },
      {
        manager: 'writer-b',
        operation: 'Apply',
        subresource: 'status',
        fieldsV1: {
          'f:status': {
            'f:conditions': {
              'k:{"type":"Programmed"}': { '.': {}, 'f:type': {}, 'f:status': {} },
            },
          },
        },
      },
      {
        manager: 'set-writer',
        operation: 'Update',
        fieldsV1: { 'f:spec': { 'f:tags': { 'v:"x"': {} }, 'f:ports': { 'i:1': { 'f:n': {} } } } },
      },
    ],
  },
  spec: {
    foo: 'bar',
    tags: ['w', 'x'],
    ports: [
      { n: 1, m: 1 },
      { n: 2, m: 2 },
    ],
  },
  status: {
    conditions: [
      { type: 'Programmed', status: 'True', reason: 'B', message: '' },
      { type: 'Ready', status: 'True', reason: 'A', message: 'not owned' },
    ],
    addresses: ['10.0.0.1', '10.0.0.2'],
    listeners: [
      { name: 'http', attachedRoutes: 2, extra: 1 },
      { name: 'https', attachedRoutes: 1 },
    ],
  },
};

describe('extractOwned', () => {
  it('extracts a manager’s status subset: list-map entries by key, atomic lists whole, only owned subfields', () => {
    assert.deepEqual(extractOwned(live, { manager: 'writer-a', subresource: 'status' }), {
      status: {
        conditions: [{ type: 'Ready', status: 'True', reason: 'A' }],
        addresses: ['10.0.0.1', '10.0.0.2'],
        listeners: [{ name: 'http', attachedRoutes: 2 }],
      },
    });
  });

  it('keeps the main-resource entry of the same manager apart from its status entry', () => {
    assert.deepEqual(extractOwned(live, { manager: 'writer-a' }), {
      metadata: { labels: { a: '1' } },
      spec: { foo: 'bar' },
    });
  });

  it('reads set values (v:) and list indexes (i:) of Update entries', () => {
    assert.deepEqual(extractOwned(live, { manager: 'set-writer', operation: 'Update' }), {
      spec: { tags: ['x'], ports: [{ n: 2 }] },
    });
  });

  it('adds the key fields of a list-map entry even when only the node itself is owned', () => {
    const obj = {
      metadata: {
        managedFields: [
          {
            manager: 'm',
            operation: 'Apply',
            subresource: 'status',
            fieldsV1: { 'f:status': { 'f:conditions': { 'k:{"type":"Ready"}': { '.': {} } } } },
          },
        ],
      },
      status: { conditions: [{ type: 'Ready', status: 'True' }] },
    };
    assert.deepEqual(extractOwned(obj, { manager: 'm', subresource: 'status' }), {
      status: { conditions: [{ type: 'Ready' }] },
    });
  });

  it('skips owned entries that are no longer in the object and returns {} without an entry', () => {
    const obj = {
      metadata: {
        managedFields: [
          {
            manager: 'm',
            operation: 'Apply',
            subresource: 'status',
            fieldsV1: { 'f:status': { 'f:conditions': { 'k:{"type":"Gone"}': { 'f:type': {} } } } },
          },
        ],
      },
      status: { conditions: [{ type: 'Ready', status: 'True' }] },
    };
    assert.deepEqual(extractOwned(obj, { manager: 'm', subresource: 'status' }), {
      status: { conditions: [] },
    });
    assert.deepEqual(extractOwned(obj, { manager: 'other', subresource: 'status' }), {});
    assert.deepEqual(extractOwned({}, { manager: 'm' }), {});
  });

  it('finds an entry by manager, operation and subresource', () => {
    assert.equal(
      findManagedFields(live, { manager: 'writer-b', subresource: 'status' })?.manager,
      'writer-b',
    );
    assert.equal(findManagedFields(live, { manager: 'writer-b' }), undefined);
    assert.equal(findManagedFields(live, { manager: 'set-writer' }), undefined);
  });
});

describe('canonicalJson', () => {
  it('is independent of object key order but not of list order', () => {
    assert.equal(
      canonicalJson({ a: 1, b: { c: 2, d: 3 } }),
      canonicalJson({ b: { d: 3, c: 2 }, a: 1 }),
    );
    assert.notEqual(canonicalJson([1, 2]), canonicalJson([2, 1]));
  });
});

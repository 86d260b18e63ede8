import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import {
  entryIdentity,
  newerObservedGeneration,
  withTransitionTimes,
} from '../../../../src/k8s/ssa/conditions.js';

const NOW = '2026-05-05T05:05:05Z';
const OLD = '2026-01-01T00:00:00Z';

describe('withTransitionTimes', () => {
  it('carries the live time over while status is unchanged, even when reason and message change', () => {
    const live = {
      conditions: [{ type: 'Ready', status: 'True', reason: 'A', lastTransitionTime: OLD }],
    };
    const out = withTransitionTimes(
      { conditions: [{ type: 'Ready', status: 'True', reason: 'B' }] },
      live,
      NOW,
    );
    assert.deepEqual(out, {
      conditions: [{ type: 'Ready', status: 'True', reason: 'B', lastTransitionTime: OLD }],
    });
  });

  it('uses now when the status flips or the condition is new', () => {
    const live = { conditions: [{ type: 'Ready', status: 'True', lastTransitionTime: OLD }] };
    const out = withTransitionTimes(
      {
        conditions: [
          { type: 'Ready', status: 'False' },
          { type: 'New', status: 'True' },
        ],
      },
      live,
      NOW,
    ) as { conditions: { lastTransitionTime: string }[] };
    assert.deepEqual(
      out.conditions.map((c) => c.lastTransitionTime),
      [NOW, NOW],
    );
  });

  it('keeps a time the caller set', () => {
    const out = withTransitionTimes(
      {
        conditions: [{ type: 'Ready', status: 'True', lastTransitionTime: '2020-01-01T00:00:00Z' }],
      },
      { conditions: [{ type: 'Ready', status: 'True', lastTransitionTime: OLD }] },
      NOW,
    ) as { conditions: { lastTransitionTime: string }[] };
    assert.equal(out.conditions[0]?.lastTransitionTime, '2020-01-01T00:00:00Z');
  });

  it('pairs nested conditions through listeners by name and route parents by controller and parentRef', () => {
    const live = {
      listeners: [
        {
          name: 'http',
          conditions: [{ type: 'Programmed', status: 'True', lastTransitionTime: OLD }],
        },
      ],
      parents: [
        {
          controllerName: 'c',
          parentRef: { name: 'gw' },
          conditions: [{ type: 'Accepted', status: 'True', lastTransitionTime: OLD }],
        },
      ],
    };
    const out = withTransitionTimes(
      {
        listeners: [{ name: 'http', conditions: [{ type: 'Programmed', status: 'True' }] }],
        parents: [
          {
            controllerName: 'c',
            parentRef: { name: 'gw' },
            conditions: [{ type: 'Accepted', status: 'True' }],
          },
          {
            controllerName: 'c',
            parentRef: { name: 'other' },
            conditions: [{ type: 'Accepted', status: 'True' }],
          },
        ],
      },
      live,
      NOW,
    );
    assert.deepEqual(out, {
      listeners: [
        {
          name: 'http',
          conditions: [{ type: 'Programmed', status: 'True', lastTransitionTime: OLD }],
        },
      ],
      parents: [
        {
          controllerName: 'c',
          parentRef: { name: 'gw' },
          conditions: [{ type: 'Accepted', status: 'True', lastTransitionTime: OLD }],
        },
        {
          controllerName: 'c',
          parentRef: { name: 'other' },
          conditions: [{ type: 'Accepted', status: 'True', lastTransitionTime: NOW }],
        },
      ],
    });
  });
});

describe('newerObservedGeneration', () => {
  it('names a condition whose live observedGeneration is newer than ours', () => {
    const found = newerObservedGeneration(
      { conditions: [{ type: 'Ready', status: 'True', observedGeneration: 2 }] },
      { conditions: [{ type: 'Ready', status: 'True', observedGeneration: 3 }] },
    );
    assert.equal(found, 'status.conditions[type:Ready].observedGeneration');
  });

  it('names a newer top-level observedGeneration', () => {
    assert.equal(
      newerObservedGeneration({ observedGeneration: 1 }, { observedGeneration: 2 }),
      'status.observedGeneration',
    );
  });

  it('allows equal or older live generations and absent ones', () => {
    assert.equal(
      newerObservedGeneration(
        {
          observedGeneration: 3,
          conditions: [{ type: 'Ready', status: 'True', observedGeneration: 3 }],
        },
        {
          observedGeneration: 3,
          conditions: [{ type: 'Ready', status: 'True', observedGeneration: 2 }],
        },
      ),
      undefined,
    );
    assert.equal(newerObservedGeneration({ observedGeneration: 1 }, undefined), undefined);
  });
});

describe('entryIdentity', () => {
  it('identifies conditions, parents, ancestors and named entries', () => {
    assert.equal(entryIdentity({ type: 'Ready', status: 'True' }), 'type:Ready');
    assert.equal(
      entryIdentity({ controllerName: 'c', parentRef: { name: 'g', kind: 'Gateway' } }),
      'parent:c:{"kind":"Gateway","name":"g"}',
    );
    assert.equal(
      entryIdentity({ controllerName: 'c', ancestorRef: { name: 'g' } }),
      'ancestor:c:{"name":"g"}',
    );
    assert.equal(entryIdentity({ name: 'http' }), 'name:http');
    assert.equal(entryIdentity('10.0.0.1'), undefined);
  });
});

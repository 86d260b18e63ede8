import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { normalise, normalisedEqual, stripEmpty } from '../../../../src/k8s/ssa/normalise.js';

describe('normalise', () => {
  it('cuts RFC3339 timestamps to whole seconds in UTC', () => {
    assert.equal(normalise('2026-01-02T03:04:05.678Z'), '2026-01-02T03:04:05Z');
    assert.equal(normalise('2026-01-02T05:04:05+02:00'), '2026-01-02T03:04:05Z');
    assert.equal(normalise('not a time'), 'not a time');
  });

  it('drops null, undefined and empty containers but keeps empty strings, zero and false', () => {
    assert.deepEqual(
      normalise({ a: null, b: undefined, c: {}, d: [], e: { f: [] }, g: '', h: 0, i: false }),
      {
        g: '',
        h: 0,
        i: false,
      },
    );
    assert.equal(normalise({ a: { b: {} } }), undefined);
  });
});

describe('normalisedEqual', () => {
  it('treats a millisecond timestamp, key order and empty containers as equal', () => {
    assert.equal(
      normalisedEqual(
        { conditions: [{ type: 'A', lastTransitionTime: '2026-01-02T03:04:05.999Z' }], x: [] },
        { conditions: [{ lastTransitionTime: '2026-01-02T03:04:05Z', type: 'A' }] },
      ),
      true,
    );
  });

  it('sees a changed value or order as different', () => {
    assert.equal(normalisedEqual({ a: ['x', 'y'] }, { a: ['y', 'x'] }), false);
    assert.equal(normalisedEqual({ a: 'x' }, { a: 'y' }), false);
    assert.equal(normalisedEqual(undefined, {}), true);
  });
});

describe('stripEmpty', () => {
  it('removes placeholders such as conditions: [] from an apply body', () => {
    assert.deepEqual(stripEmpty({ conditions: [], addresses: ['a'], meta: {}, x: null }), {
      addresses: ['a'],
    });
  });
});

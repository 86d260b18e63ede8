import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { InvalidArgumentError } from '../../../../src/core/errors.js';
import {
  CompositeIndex,
  MAX_KEYS_PER_OBJECT,
} from '../../../../src/core/object-index/composite-index.js';
import {
  AmbiguousLookupError,
  ObjectPathError,
} from '../../../../src/core/object-index/object-index-errors.js';

interface Obj {
  readonly id: string;
  readonly ns?: string;
  readonly hosts?: readonly string[];
  readonly ports?: readonly number[];
}

const ids = (objs: readonly Obj[]): string[] => objs.map((o) => o.id);

describe('CompositeIndex', () => {
  it('answers full and partial keys, ordered by first composite key then primary key', () => {
    const idx = new CompositeIndex<Obj>('things', ['ns', 'id']);
    idx.set('3', { id: 'c', ns: 'b' });
    idx.set('2', { id: 'b', ns: 'a' });
    idx.set('1', { id: 'a', ns: 'a' });
    assert.deepEqual(ids(idx.list()), ['a', 'b', 'c']);
    assert.deepEqual(ids(idx.fetch('a')), ['a', 'b']);
    assert.deepEqual(ids(idx.fetch('a', 'b')), ['b']);
    assert.deepEqual(ids(idx.fetch('zzz')), []);
    assert.throws(() => idx.fetch('a', 'b', 'c'), InvalidArgumentError);
  });

  it('gives a missing field the key "" so such objects stay reachable', () => {
    const idx = new CompositeIndex<Obj>('things', ['ns']);
    idx.set('1', { id: 'x' });
    assert.deepEqual(ids(idx.fetch('')), ['x']);
  });

  it('indexes a wildcard under every value and the cartesian product of several', () => {
    const idx = new CompositeIndex<Obj>('things', ['hosts[*]', 'ports[*]']);
    idx.set('1', { id: 'x', hosts: ['h1', 'h2'], ports: [80, 443] });
    assert.deepEqual(idx.keysOf(idx.get('1')), [
      ['h1', '80'],
      ['h1', '443'],
      ['h2', '80'],
      ['h2', '443'],
    ]);
    assert.deepEqual(ids(idx.fetch('h2', '443')), ['x']);
    assert.deepEqual(ids(idx.fetch('h2')), ['x'], 'one object once, though under two keys');
  });

  it(`caps the keys of one object at ${String(MAX_KEYS_PER_OBJECT)}`, () => {
    const idx = new CompositeIndex<Obj>('things', ['hosts[*]', 'ports[*]']);
    const hosts = Array.from({ length: 20 }, (_, i) => `h${String(i)}`);
    const ports = Array.from({ length: 20 }, (_, i) => i);
    assert.equal(idx.keysOf({ id: 'x', hosts, ports }).length, MAX_KEYS_PER_OBJECT);
  });

  it('replaces and deletes by primary key, dropping the old keys', () => {
    const idx = new CompositeIndex<Obj>('things', ['ns']);
    idx.set('1', { id: 'x', ns: 'old' });
    idx.set('1', { id: 'x', ns: 'new' });
    assert.deepEqual(ids(idx.fetch('old')), []);
    assert.deepEqual(ids(idx.fetch('new')), ['x']);
    assert.equal(idx.delete('1')?.ns, 'new');
    assert.equal(idx.size, 0);
    assert.deepEqual(ids(idx.fetch('new')), []);
    assert.equal(idx.delete('1'), undefined);
  });

  it('getSingle returns the match, null for none and throws AmbiguousLookupError for several', () => {
    const idx = new CompositeIndex<Obj>('things', ['ns']);
    idx.set('1', { id: 'a', ns: 'n' });
    idx.set('2', { id: 'b', ns: 'n' });
    idx.set('3', { id: 'c', ns: 'm' });
    assert.equal(idx.getSingle('m')?.id, 'c');
    assert.equal(idx.getSingle('none'), null);
    assert.throws(() => idx.getSingle('n'), AmbiguousLookupError);
  });

  it('rejects an unsupported expression at construction', () => {
    assert.throws(() => new CompositeIndex('things', ['items[?(@.x)]']), ObjectPathError);
  });
});

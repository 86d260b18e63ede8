import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { ObjectPathError } from '../../../src/core/object-index/object-index-errors.js';
import { FixtureStore } from '../../../src/templating/fixture-store.js';

const obj = (ns: string, name: string, tag: string): object => ({
  metadata: { namespace: ns, name, labels: { tag } },
});
const tags = (objs: readonly object[]): string[] =>
  objs.map((o) => (o as { metadata: { labels: { tag: string } } }).metadata.labels.tag);

describe('FixtureStore', () => {
  it('keeps fixtures that repeat a namespace/name, in the order they were given', () => {
    const store = new FixtureStore(
      'cms',
      [obj('a', 'x', 'first'), obj('a', 'x', 'second'), obj('a', 'w', 'third')],
      ['metadata.namespace', 'metadata.name'],
    );
    assert.deepEqual(tags(store.list()), ['third', 'first', 'second']);
    assert.deepEqual(tags(store.fetch('a', 'x')), ['first', 'second']);
    assert.throws(() => store.getSingle('a', 'x'), /2 objects match/);
  });

  it('rejects an unsupported indexBy expression when built', () => {
    assert.throws(() => new FixtureStore('cms', [], ['items[?(@.a)]']), ObjectPathError);
  });
});

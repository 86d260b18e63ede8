import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { InvalidArgumentError } from '../../../../src/core/errors.js';
import { IndexedStore, type StoreChange } from '../../../../src/k8s/informer/indexed-store.js';
import { AmbiguousLookupError } from '../../../../src/core/object-index/object-index-errors.js';
import { cm } from './fake-list-watch-transport.js';

const names = (objs: readonly { metadata?: { name?: string } }[]): string[] =>
  objs.map((o) => o.metadata?.name ?? '');

function changes(store: IndexedStore): string[] {
  const log: string[] = [];
  store.subscribe((c: StoreChange) => {
    log.push(
      c.type === 'updated'
        ? `updated ${c.old.metadata?.resourceVersion ?? ''}->${c.object.metadata?.resourceVersion ?? ''}`
        : `${c.type} ${c.object.metadata?.name ?? ''}`,
    );
  });
  return log;
}

describe('IndexedStore', () => {
  it('looks objects up by full and partial namespace/name keys', () => {
    const s = new IndexedStore();
    s.replace(
      [cm('b', 'u1', '1', {}, 'x'), cm('a', 'u2', '1', {}, 'x'), cm('a', 'u3', '1', {}, 'y')],
      '1',
    );
    assert.deepEqual(names(s.fetch('x')), ['a', 'b']);
    assert.deepEqual(names(s.fetch('x', 'a')), ['a']);
    assert.equal(s.fetch('x', 'a')[0]?.metadata?.uid, 'u2');
    assert.deepEqual(names(s.fetch('z')), []);
    assert.deepEqual(names(s.fetch()), ['a', 'b', 'a']);
    assert.deepEqual(names(s.list()), ['a', 'b', 'a']);
  });

  it('getSingle returns the match, null for none and throws when several match', () => {
    const s = new IndexedStore();
    s.replace([cm('a', 'u1', '1'), cm('b', 'u2', '1')], '1');
    assert.equal(s.getSingle('default', 'a')?.metadata?.uid, 'u1');
    assert.equal(s.getSingle('default', 'nope'), null);
    assert.throws(() => s.getSingle('default'), AmbiguousLookupError);
  });

  it('rejects more keys than indexBy has', () => {
    const s = new IndexedStore();
    assert.throws(() => s.fetch('a', 'b', 'c'), InvalidArgumentError);
  });

  it('indexes by a label key and by every value of a wildcard expression', () => {
    const byLabel = new IndexedStore({
      indexBy: ["metadata.labels['kubernetes.io/service-name']"],
    });
    const slice = (n: string) => cm(n, n, '1', {}, 'default');
    const a = slice('s1');
    (a.metadata as Record<string, unknown>)['labels'] = { 'kubernetes.io/service-name': 'web' };
    const b = slice('s2');
    (b.metadata as Record<string, unknown>)['labels'] = { 'kubernetes.io/service-name': 'db' };
    byLabel.replace([a, b], '1');
    assert.deepEqual(names(byLabel.fetch('web')), ['s1']);

    const byHost = new IndexedStore({ indexBy: ['metadata.namespace', 'spec.rules[*].host'] });
    byHost.replace(
      [
        cm('ing1', 'i1', '1', { spec: { rules: [{ host: 'a.example' }, { host: 'b.example' }] } }),
        cm('ing2', 'i2', '1', { spec: { rules: [{ host: 'b.example' }] } }),
      ],
      '1',
    );
    assert.deepEqual(names(byHost.fetch('default', 'a.example')), ['ing1']);
    assert.deepEqual(names(byHost.fetch('default', 'b.example')), ['ing1', 'ing2']);
    assert.deepEqual(names(byHost.fetch('default')), ['ing1', 'ing2']);
    byHost.apply('MODIFIED', cm('ing1', 'i1', '2', { spec: { rules: [{ host: 'c.example' }] } }));
    assert.deepEqual(names(byHost.fetch('default', 'b.example')), ['ing2']);
    assert.deepEqual(names(byHost.fetch('default', 'c.example')), ['ing1']);
  });

  it('strips ignore-fields (managedFields by default) before storing', () => {
    const s = new IndexedStore();
    s.replace([cm('a', 'u1', '1', { data: { k: 'v' } })], '1');
    const withMf = cm('b', 'u2', '2');
    (withMf.metadata as Record<string, unknown>)['managedFields'] = [{ manager: 'x' }];
    s.apply('ADDED', withMf);
    assert.equal(s.get('default/b')?.metadata?.['managedFields'], undefined);
    const custom = new IndexedStore({ ignoreFields: ['data'] });
    custom.replace([cm('a', 'u1', '1', { data: { k: 'v' } })], '1');
    assert.equal(custom.get('default/a')?.['data'], undefined);
  });

  it('drops objects failing the field selector and turns an update that stops matching into a delete', () => {
    const s = new IndexedStore({ fieldSelector: 'data.role=edge' });
    const log = changes(s);
    s.replace(
      [
        cm('a', 'u1', '1', { data: { role: 'edge' } }),
        cm('b', 'u2', '1', { data: { role: 'core' } }),
      ],
      '1',
    );
    assert.deepEqual(names(s.list()), ['a']);
    s.apply('MODIFIED', cm('a', 'u1', '2', { data: { role: 'core' } }));
    s.apply('MODIFIED', cm('b', 'u2', '2', { data: { role: 'edge' } }));
    assert.deepEqual(names(s.list()), ['b']);
    assert.deepEqual(log, ['added a', 'deleted a', 'added b']);
  });

  it('emits add, update and delete for watch events and ignores deletes of unknown objects', () => {
    const s = new IndexedStore();
    const log = changes(s);
    s.replace([], '1');
    s.apply('ADDED', cm('a', 'u1', '1'));
    s.apply('MODIFIED', cm('a', 'u1', '2'));
    s.apply('DELETED', cm('a', 'u1', '3'));
    s.apply('DELETED', cm('zzz', 'u9', '3'));
    assert.deepEqual(log, ['added a', 'updated 1->2', 'deleted a']);
    assert.equal(s.size, 0);
  });

  it('emits synthetic events on a relist: deleted, re-created, updated and added objects', () => {
    const s = new IndexedStore();
    const log = changes(s);
    s.replace(
      [cm('keep', 'u1', '1'), cm('upd', 'u2', '1'), cm('del', 'u3', '1'), cm('re', 'u4', '1')],
      '1',
    );
    log.length = 0;
    s.replace(
      [cm('keep', 'u1', '1'), cm('upd', 'u2', '7'), cm('re', 'u5', '7'), cm('new', 'u6', '7')],
      '7',
    );
    assert.deepEqual(log, ['deleted del', 'deleted re', 'updated 1->7', 'added re', 'added new']);
    assert.equal(s.get('default/re')?.metadata?.uid, 'u5');
    assert.deepEqual(names(s.fetch('default', 'del')), []);
    assert.equal(s.listCount, 2);
    assert.equal(s.listResourceVersion, '7');
  });
});

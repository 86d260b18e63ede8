import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { GoneError } from '../../../../src/k8s/client/kube-errors.js';
import { listAll } from '../../../../src/k8s/informer/list-pages.js';
import { cm, FakeListWatchTransport } from './fake-list-watch-transport.js';

const gone = (): GoneError =>
  new GoneError({ method: 'GET', path: '/x' }, 410, {
    reason: 'Expired',
    message: 'continue expired',
  });

describe('listAll', () => {
  it('follows continue tokens until the last page', async () => {
    const t = new FakeListWatchTransport();
    t.objects = ['a', 'b', 'c', 'd', 'e'].map((n, i) => cm(n, `u${i}`, String(i)));
    const r = await listAll(
      t,
      { pageSize: 2, labelSelector: 'app=x' },
      new AbortController().signal,
    );
    assert.deepEqual(
      r.items.map((i) => i.metadata?.name),
      ['a', 'b', 'c', 'd', 'e'],
    );
    assert.equal(r.resourceVersion, 'rv-list-1');
    assert.deepEqual(
      t.listQueries.map((q) => [q.continueToken, q.limit, q.labelSelector]),
      [
        [undefined, 2, 'app=x'],
        ['2', 2, 'app=x'],
        ['4', 2, 'app=x'],
      ],
    );
  });

  it('restarts from the first page when a continue token expires (410)', async () => {
    const t = new FakeListWatchTransport();
    t.objects = ['a', 'b', 'c'].map((n, i) => cm(n, `u${i}`, String(i)));
    const original = t.listPage.bind(t);
    let calls = 0;
    t.listPage = (q) => (++calls === 2 ? Promise.reject(gone()) : original(q));
    const r = await listAll(t, { pageSize: 2 }, new AbortController().signal);
    assert.deepEqual(
      r.items.map((i) => i.metadata?.name),
      ['a', 'b', 'c'],
    );
    assert.equal(r.restarts, 1);
    assert.deepEqual(
      t.listQueries.map((q) => q.continueToken),
      [undefined, undefined, '2'],
    );
  });

  it('rethrows a 410 on the first page (nothing to restart) and after maxRestarts', async () => {
    const t = new FakeListWatchTransport();
    t.listErrors.push(gone());
    await assert.rejects(listAll(t, {}, new AbortController().signal), GoneError);
    const t2 = new FakeListWatchTransport();
    t2.objects = ['a', 'b', 'c'].map((n, i) => cm(n, `u${i}`, String(i)));
    const original = t2.listPage.bind(t2);
    t2.listPage = (q) => (q.continueToken ? Promise.reject(gone()) : original(q));
    await assert.rejects(
      listAll(t2, { pageSize: 1, maxRestarts: 2 }, new AbortController().signal),
      GoneError,
    );
    assert.equal(t2.listQueries.length, 3);
  });
});

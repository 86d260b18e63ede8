import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { AbortedError, InvalidArgumentError } from '../../../../src/core/errors.js';
import type { KubeObject } from '../../../../src/k8s/client/kube-object.js';
import { InformerHandlerError } from '../../../../src/k8s/informer/informer-errors.js';
import { Informer } from '../../../../src/k8s/informer/informer.js';
import { cm, FakeListWatchTransport, until } from './fake-list-watch-transport.js';

function start(objects: KubeObject[] = []) {
  const transport = new FakeListWatchTransport();
  transport.objects = objects;
  const errors: unknown[] = [];
  const informer = new Informer({
    transport,
    onError: (e) => errors.push(e),
    backoff: { initialMs: 1, maxMs: 1 },
  });
  return { transport, errors, informer };
}

describe('Informer', () => {
  it('is not synced before its first list and waitForSync resolves after it', async () => {
    const t = start([cm('a', 'u1', '1')]);
    const log: string[] = [];
    t.informer.addHandlers({
      onAdd: (o, initial) => log.push(`add ${o.metadata?.name ?? ''} ${initial}`),
    });
    assert.equal(t.informer.hasSynced, false);
    const ac = new AbortController();
    const done = t.informer.run(ac.signal);
    await t.informer.waitForSync(ac.signal);
    assert.equal(t.informer.hasSynced, true);
    assert.deepEqual(log, ['add a true']);
    ac.abort();
    await done;
  });

  it('becomes synced after an empty first list', async () => {
    const t = start();
    const ac = new AbortController();
    const done = t.informer.run(ac.signal);
    await t.informer.waitForSync(ac.signal);
    assert.equal(t.informer.store.size, 0);
    ac.abort();
    await done;
  });

  it('refuses a second run while the first is active', async () => {
    const t = start();
    const ac = new AbortController();
    const done = t.informer.run(ac.signal);
    await assert.rejects(t.informer.run(ac.signal), InvalidArgumentError);
    ac.abort();
    await done;
  });

  it('waitForSync rejects with AbortedError when its signal aborts first', async () => {
    const t = start();
    const ac = new AbortController();
    const wait = t.informer.waitForSync(ac.signal);
    ac.abort();
    await assert.rejects(wait, AbortedError);
  });

  it('calls add, update and delete handlers with the store already updated', async () => {
    const t = start();
    const log: string[] = [];
    t.informer.addHandlers({
      onAdd: (o, initial) =>
        log.push(`add ${o.metadata?.name ?? ''} ${initial} size=${t.informer.store.size}`),
      onUpdate: (old, o) =>
        log.push(
          `update ${old.metadata?.resourceVersion ?? ''}->${o.metadata?.resourceVersion ?? ''}`,
        ),
      onDelete: (o) => log.push(`delete ${o.metadata?.name ?? ''} size=${t.informer.store.size}`),
    });
    const ac = new AbortController();
    const done = t.informer.run(ac.signal);
    await until(() => t.transport.watches.length === 1, 'watch');
    const w = t.transport.lastWatch;
    w.push({ type: 'ADDED', object: cm('a', 'u1', '2') });
    w.push({ type: 'MODIFIED', object: cm('a', 'u1', '3') });
    w.push({ type: 'DELETED', object: cm('a', 'u1', '4') });
    await until(() => log.length === 3, 'three events');
    assert.deepEqual(log, ['add a false size=1', 'update 2->3', 'delete a size=0']);
    assert.equal(t.informer.resourceVersion, '4');
    ac.abort();
    await done;
  });

  it('catches a throwing handler, reports it and still calls the other handlers', async () => {
    const t = start([cm('a', 'u1', '1')]);
    const seen: string[] = [];
    t.informer.addHandlers({
      onAdd: () => {
        throw new Error('handler bug');
      },
    });
    t.informer.addHandlers({ onAdd: (o) => seen.push(o.metadata?.name ?? '') });
    const ac = new AbortController();
    const done = t.informer.run(ac.signal);
    await t.informer.waitForSync(ac.signal);
    assert.deepEqual(seen, ['a']);
    assert.ok(t.errors[0] instanceof InformerHandlerError);
    assert.equal(((t.errors[0] as Error).cause as Error).message, 'handler bug');
    assert.equal(t.informer.store.size, 1);
    ac.abort();
    await done;
  });

  it('stops calling handlers once they are removed', async () => {
    const t = start();
    const log: string[] = [];
    const remove = t.informer.addHandlers({ onAdd: (o) => log.push(o.metadata?.name ?? '') });
    const ac = new AbortController();
    const done = t.informer.run(ac.signal);
    await until(() => t.transport.watches.length === 1, 'watch');
    t.transport.lastWatch.push({ type: 'ADDED', object: cm('a', 'u1', '2') });
    await until(() => log.length === 1, 'first add');
    remove();
    t.transport.lastWatch.push({ type: 'ADDED', object: cm('b', 'u2', '3') });
    await until(() => t.informer.store.size === 2, 'second add stored');
    assert.deepEqual(log, ['a']);
    ac.abort();
    await done;
  });
});

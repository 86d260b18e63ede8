import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { GoneError, KubeUnreachableError } from '../../../../src/k8s/client/kube-errors.js';
import type { KubeObject } from '../../../../src/k8s/client/kube-object.js';
import {
  WatchInactiveError,
  WatchStreamError,
} from '../../../../src/k8s/informer/informer-errors.js';
import { Reflector, type ReflectorSink } from '../../../../src/k8s/informer/reflector.js';
import { cm, FakeListWatchTransport, until } from './fake-list-watch-transport.js';

class FakeSink implements ReflectorSink {
  readonly log: string[] = [];
  replace(items: KubeObject[], rv: string): void {
    this.log.push(`replace ${rv} [${items.map((i) => i.metadata?.name ?? '').join(',')}]`);
  }
  apply(type: string, o: KubeObject): void {
    this.log.push(`${type} ${o.metadata?.name ?? ''}`);
  }
}

function setup(opts: { inactivityMs?: number; objects?: KubeObject[]; listErrors?: Error[] } = {}) {
  const transport = new FakeListWatchTransport();
  transport.objects = opts.objects ?? [];
  transport.listErrors.push(...(opts.listErrors ?? []));
  const sink = new FakeSink();
  const errors: unknown[] = [];
  const reflector = new Reflector(transport, sink, {
    backoff: { initialMs: 1, maxMs: 2 },
    onError: (e) => errors.push(e),
    watchTimeoutSeconds: 100,
    random: () => 0.5,
    pageSize: 2,
    ...(opts.inactivityMs !== undefined && { inactivityMs: opts.inactivityMs }),
  });
  const ac = new AbortController();
  return { transport, sink, errors, reflector, ac, done: reflector.run(ac.signal) };
}

describe('Reflector', () => {
  it('lists page by page, then watches from the list resourceVersion with a jittered timeout', async () => {
    const t = setup({ objects: [cm('a', 'u1', '1'), cm('b', 'u2', '2'), cm('c', 'u3', '3')] });
    await until(() => t.transport.watches.length === 1, 'watch opened');
    assert.deepEqual(t.sink.log, ['replace rv-list-1 [a,b,c]']);
    assert.deepEqual(
      t.transport.listQueries.map((q) => q.continueToken),
      [undefined, '2'],
    );
    assert.equal(t.transport.lastWatch.query.resourceVersion, 'rv-list-1');
    assert.equal(t.transport.lastWatch.query.timeoutSeconds, 150);
    t.ac.abort();
    await t.done;
  });

  it('advances the opaque resourceVersion on every event including BOOKMARK', async () => {
    const t = setup();
    await until(() => t.transport.watches.length === 1, 'watch opened');
    t.transport.lastWatch.push({ type: 'ADDED', object: cm('a', 'u1', 'opaque-A') });
    await until(() => t.reflector.resourceVersion === 'opaque-A', 'rv after ADDED');
    t.transport.lastWatch.push({
      type: 'BOOKMARK',
      object: { kind: 'ConfigMap', metadata: { resourceVersion: 'opaque-bookmark-Z' } },
    });
    await until(() => t.reflector.resourceVersion === 'opaque-bookmark-Z', 'rv after BOOKMARK');
    assert.equal(t.reflector.stats.bookmarks, 1);
    assert.deepEqual(t.sink.log, ['replace rv-list-1 []', 'ADDED a']);
    // The next watch resumes from the bookmark's version.
    t.transport.lastWatch.end();
    await until(() => t.transport.watches.length === 2, 'second watch');
    assert.equal(t.transport.lastWatch.query.resourceVersion, 'opaque-bookmark-Z');
    t.ac.abort();
    await t.done;
  });

  it('relists after an ERROR event with code 410 and reports a GoneError', async () => {
    const t = setup({ objects: [cm('a', 'u1', '1')] });
    await until(() => t.transport.watches.length === 1, 'watch opened');
    t.transport.objects = [cm('b', 'u2', '5')];
    t.transport.listResourceVersion = 'rv-list-2';
    t.transport.lastWatch.push({
      type: 'ERROR',
      object: { kind: 'Status', code: 410, reason: 'Expired', message: 'too old resource version' },
    });
    await until(() => t.transport.watches.length === 2, 'watch after relist');
    assert.deepEqual(t.sink.log, ['replace rv-list-1 [a]', 'replace rv-list-2 [b]']);
    assert.equal(t.transport.lastWatch.query.resourceVersion, 'rv-list-2');
    assert.ok(t.errors[0] instanceof GoneError);
    assert.equal(t.reflector.stats.gone, 1);
    t.ac.abort();
    await t.done;
  });

  it('relists when opening the watch answers HTTP 410', async () => {
    const t = setup();
    t.transport.watchErrors.push(new GoneError({ method: 'GET', path: '/x' }, 410, {}));
    await until(() => t.transport.watches.length === 1, 'watch after relist');
    assert.equal(t.reflector.stats.lists, 2);
    t.ac.abort();
    await t.done;
  });

  it('reports other failures and retries with the same resourceVersion, never stopping', async () => {
    const t = setup({
      listErrors: [new KubeUnreachableError('https://x', { cause: new Error('refused') })],
    });
    await until(() => t.transport.watches.length === 1, 'first watch');
    t.transport.lastWatch.push({ type: 'MODIFIED', object: cm('a', 'u1', 'r7') });
    t.transport.lastWatch.fail(new Error('socket hang up'));
    await until(() => t.transport.watches.length === 2, 'second watch');
    t.transport.watchErrors.push(new Error('ECONNREFUSED'));
    t.transport.lastWatch.push({
      type: 'ERROR',
      object: { kind: 'Status', code: 500, message: 'internal' },
    });
    await until(() => t.transport.watches.length === 3, 'third watch');
    assert.equal(t.transport.lastWatch.query.resourceVersion, 'r7');
    assert.equal(t.reflector.stats.lists, 1);
    assert.equal(t.errors.length, 4, t.errors.map(String).join('; '));
    assert.ok(t.errors[0] instanceof KubeUnreachableError);
    assert.equal((t.errors[1] as Error).message, 'socket hang up');
    assert.ok(t.errors[2] instanceof WatchStreamError);
    assert.equal((t.errors[3] as Error).message, 'ECONNREFUSED');
    t.ac.abort();
    await t.done;
  });

  it('reconnects a watch that stays silent beyond the inactivity timeout', async () => {
    const t = setup({ inactivityMs: 5 });
    await until(() => t.transport.watches.length >= 2, 'reconnect after inactivity');
    assert.ok(t.errors.some((e) => e instanceof WatchInactiveError));
    assert.equal(t.transport.watches[0]?.closed, true);
    t.ac.abort();
    await t.done;
  });

  it('survives an onError callback that throws', async () => {
    const transport = new FakeListWatchTransport();
    transport.listErrors.push(new Error('boom'));
    const r = new Reflector(transport, new FakeSink(), {
      backoff: { initialMs: 1, maxMs: 1 },
      onError: () => {
        throw new Error('bad callback');
      },
    });
    const ac = new AbortController();
    const done = r.run(ac.signal);
    await until(() => transport.watches.length === 1, 'watch after failed list');
    ac.abort();
    await done;
  });

  it('opens no watch and leaves no timer behind when aborted while its list is in flight', async () => {
    const transport = new FakeListWatchTransport();
    let release = (): void => undefined;
    const gate = new Promise<void>((r) => (release = r));
    const original = transport.listPage.bind(transport);
    transport.listPage = async (q) => {
      await gate;
      return original(q);
    };
    const r = new Reflector(transport, new FakeSink(), { inactivityMs: 60_000 });
    const ac = new AbortController();
    const done = r.run(ac.signal);
    ac.abort();
    release();
    await done;
    assert.equal(transport.watches.length, 0);
    assert.equal(r.stats.watches, 0);
  });

  it('stops when the signal aborts and closes the open watch', async () => {
    const t = setup();
    await until(() => t.transport.watches.length === 1, 'watch opened');
    t.ac.abort();
    await t.done;
    await until(() => t.transport.lastWatch.closed, 'watch closed');
    assert.equal(t.transport.watches.length, 1);
  });
});

/** A scripted ListWatchTransport for unit tests of reflectors and informers. */
import type { KubeList, KubeObject, WatchEvent } from '../../../../src/k8s/client/kube-object.js';
import type {
  ListPageQuery,
  ListWatchTransport,
  WatchQuery,
} from '../../../../src/k8s/informer/list-watch-transport.js';

type Item = { event: WatchEvent } | { end: true } | { error: unknown };

/** One open watch; the test pushes events into it. */
export class FakeWatchStream implements AsyncIterable<WatchEvent> {
  private readonly queue: Item[] = [];
  private wake: (() => void) | undefined;
  closed = false;

  constructor(
    readonly query: WatchQuery,
    private readonly signal: AbortSignal,
  ) {
    signal.addEventListener(
      'abort',
      () => {
        this.notify();
      },
      { once: true },
    );
  }

  push(event: WatchEvent): void {
    this.queue.push({ event: structuredClone(event) });
    this.notify();
  }

  end(): void {
    this.queue.push({ end: true });
    this.notify();
  }

  fail(error: unknown): void {
    this.queue.push({ error });
    this.notify();
  }

  private notify(): void {
    const w = this.wake;
    this.wake = undefined;
    w?.();
  }

  async *[Symbol.asyncIterator](): AsyncGenerator<WatchEvent> {
    try {
      for (;;) {
        if (this.signal.aborted) throw new Error('fake watch aborted');
        const item = this.queue.shift();
        if (!item) {
          await new Promise<void>((r) => (this.wake = r));
          continue;
        }
        if ('end' in item) return;
        if ('error' in item) throw item.error;
        yield item.event;
      }
    } finally {
      this.closed = true;
    }
  }
}

/** Lists `objects` in pages of the asked size and opens FakeWatchStreams on demand. */
export class FakeListWatchTransport implements ListWatchTransport {
  readonly description = 'fake/configmaps';
  /** The collection as a fresh list would return it. */
  objects: KubeObject[] = [];
  listResourceVersion = 'rv-list-1';
  /** Errors thrown by the next list calls, in order (consumed). */
  readonly listErrors: Error[] = [];
  /** Errors thrown when opening the next watches, in order (consumed). */
  readonly watchErrors: Error[] = [];
  readonly listQueries: ListPageQuery[] = [];
  readonly watches: FakeWatchStream[] = [];

  listPage(query: ListPageQuery): Promise<KubeList> {
    this.listQueries.push(query);
    const err = this.listErrors.shift();
    if (err !== undefined) return Promise.reject(err);
    const start = query.continueToken ? Number(query.continueToken) : 0;
    const page = this.objects.slice(start, start + query.limit);
    const next = start + query.limit < this.objects.length ? String(start + query.limit) : '';
    return Promise.resolve({
      metadata: { resourceVersion: this.listResourceVersion, continue: next },
      items: structuredClone(page),
    });
  }

  watch(query: WatchQuery, signal: AbortSignal): Promise<AsyncIterable<WatchEvent>> {
    const err = this.watchErrors.shift();
    if (err !== undefined) return Promise.reject(err);
    const w = new FakeWatchStream(query, signal);
    this.watches.push(w);
    return Promise.resolve(w);
  }

  /** The most recent watch. */
  get lastWatch(): FakeWatchStream {
    const w = this.watches[this.watches.length - 1];
    if (!w) throw new Error('no watch opened yet');
    return w;
  }
}

/** A ConfigMap with the given uid and resourceVersion. */
export function cm(
  name: string,
  uid: string,
  rv: string,
  extra: Record<string, unknown> = {},
  namespace = 'default',
): KubeObject {
  return {
    apiVersion: 'v1',
    kind: 'ConfigMap',
    metadata: { name, namespace, uid, resourceVersion: rv },
    ...extra,
  };
}

/** Polls `cond` (microtask + timer turns) until true; throws after `turns` tries. */
export async function until(cond: () => boolean, what: string, turns = 2_000): Promise<void> {
  for (let i = 0; i < turns; i++) {
    if (cond()) return;
    await new Promise((r) => setTimeout(r, 1));
  }
  throw new Error(`condition not reached: ${what}`);
}

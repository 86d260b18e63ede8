/**
 * A real transport with a switch: `cut()` breaks the open watch and holds every later list and
 * watch call until `restore()`, as a network partition between the informer and the API server
 * would, while other clients keep writing.
 */
import type { KubeList, WatchEvent } from '../../../../src/k8s/client/kube-object.js';
import type {
  ListPageQuery,
  ListWatchTransport,
  WatchQuery,
} from '../../../../src/k8s/informer/list-watch-transport.js';

export class CuttableTransport implements ListWatchTransport {
  private gate: { promise: Promise<void>; open: () => void } | undefined;
  private readonly live = new Set<AbortController>();
  /** resourceVersions the watches were opened with, in order. */
  readonly watchedFrom: string[] = [];

  constructor(private readonly inner: ListWatchTransport) {}

  get description(): string {
    return this.inner.description;
  }

  cut(): void {
    if (!this.gate) {
      let open = (): void => undefined;
      const promise = new Promise<void>((r) => (open = r));
      this.gate = { promise, open };
    }
    for (const c of this.live) c.abort(new Error('connection cut by the test'));
  }

  restore(): void {
    this.gate?.open();
    this.gate = undefined;
  }

  async listPage(query: ListPageQuery, signal: AbortSignal): Promise<KubeList> {
    await this.pass(signal);
    return this.inner.listPage(query, signal);
  }

  async watch(query: WatchQuery, signal: AbortSignal): Promise<AsyncIterable<WatchEvent>> {
    await this.pass(signal);
    this.watchedFrom.push(query.resourceVersion);
    const c = new AbortController();
    const onAbort = (): void => {
      c.abort(signal.reason);
    };
    signal.addEventListener('abort', onAbort, { once: true });
    this.live.add(c);
    const stream = await this.inner.watch(query, c.signal);
    const live = this.live;
    return {
      async *[Symbol.asyncIterator]() {
        try {
          yield* stream;
        } finally {
          live.delete(c);
          signal.removeEventListener('abort', onAbort);
        }
      },
    };
  }

  private async pass(signal: AbortSignal): Promise<void> {
    while (this.gate) {
      const gate = this.gate;
      await new Promise<void>((resolve, reject) => {
        const onAbort = (): void => {
          reject(new Error('aborted while cut'));
        };
        signal.addEventListener('abort', onAbort, { once: true });
        void gate.promise.then(() => {
          signal.removeEventListener('abort', onAbort);
          resolve();
        });
      });
    }
  }
}

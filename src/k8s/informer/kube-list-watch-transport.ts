/** The real ListWatchTransport: list pages and NDJSON watches through a KubeClient. */
import { HapticError } from '../../core/errors.js';
import type { KubeClient } from '../client/kube-client.js';
import { KubeUnreachableError } from '../client/kube-errors.js';
import type { KubeList, WatchEvent } from '../client/kube-object.js';
import { WatchStreamError } from './informer-errors.js';
import type { ListPageQuery, ListWatchTransport, WatchQuery } from './list-watch-transport.js';
import { ndjsonLines } from './ndjson-lines.js';

const EVENT_TYPES = new Set(['ADDED', 'MODIFIED', 'DELETED', 'BOOKMARK', 'ERROR']);

/** Lists and watches the collection at `path` (e.g. `/api/v1/namespaces/x/configmaps`). */
export class KubeListWatchTransport implements ListWatchTransport {
  constructor(
    private readonly client: KubeClient,
    /** Collection path, as resourcePath() builds it. */
    readonly path: string,
  ) {}

  get description(): string {
    return this.path;
  }

  listPage(query: ListPageQuery, signal: AbortSignal): Promise<KubeList> {
    return this.client.request<KubeList>({
      method: 'GET',
      path: this.path,
      query: {
        limit: String(query.limit),
        continue: query.continueToken,
        labelSelector: query.labelSelector,
      },
      signal,
    });
  }

  async watch(query: WatchQuery, signal: AbortSignal): Promise<AsyncIterable<WatchEvent>> {
    const res = await this.client.stream({
      method: 'GET',
      path: this.path,
      query: {
        watch: '1',
        allowWatchBookmarks: 'true',
        resourceVersion: query.resourceVersion,
        timeoutSeconds: String(query.timeoutSeconds),
        labelSelector: query.labelSelector,
      },
      signal,
    });
    const path = this.path;
    const server = this.client.server;
    const onAbort = (): void => {
      res.destroy();
    };
    signal.addEventListener('abort', onAbort, { once: true });
    return {
      async *[Symbol.asyncIterator]() {
        try {
          for await (const value of ndjsonLines(res as AsyncIterable<Buffer>, `watch ${path}`)) {
            const type = (value as { type?: unknown } | null)?.type;
            if (typeof type !== 'string' || !EVENT_TYPES.has(type))
              throw new WatchStreamError(`watch ${path}: event without a known type`);
            yield value as WatchEvent;
          }
        } catch (err) {
          // A reset or premature close of the stream is a connection problem; say so by type.
          if (err instanceof HapticError || signal.aborted) throw err;
          throw new KubeUnreachableError(server, { cause: err });
        } finally {
          signal.removeEventListener('abort', onAbort);
          res.destroy();
        }
      },
    };
  }
}

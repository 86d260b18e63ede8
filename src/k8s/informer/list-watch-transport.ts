/**
 * The two calls a reflector needs, behind an interface so unit tests can script them with a
 * fake and integration tests can cut them. `KubeListWatchTransport` is the real one.
 */
import type { KubeList, KubeObject, WatchEvent } from '../client/kube-object.js';

/** Query of one list page. The reflector never sets resourceVersion: relists read from etcd. */
export interface ListPageQuery {
  readonly limit: number;
  readonly continueToken?: string;
  readonly labelSelector?: string;
}

/** Query of one watch. `resourceVersion` is opaque and passed through unchanged. */
export interface WatchQuery {
  readonly resourceVersion: string;
  readonly timeoutSeconds: number;
  readonly labelSelector?: string;
}

/** List and watch one resource collection. */
export interface ListWatchTransport {
  /** A human-readable name for messages (e.g. the collection path). */
  readonly description: string;
  /** One page of the list; throws GoneError when a `continue` token has expired. */
  listPage(query: ListPageQuery, signal: AbortSignal): Promise<KubeList>;
  /**
   * Opens a watch. The iterable ends when the server closes the stream normally and throws
   * on a transport error; aborting `signal` ends it (throwing or returning).
   * Throws GoneError when the API answers 410 at once.
   */
  watch(query: WatchQuery, signal: AbortSignal): Promise<AsyncIterable<WatchEvent>>;
}

export type { KubeObject };

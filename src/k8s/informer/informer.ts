/**
 * An informer: a Reflector (list + watch, relist, backoff) feeding an IndexedStore, with sync
 * tracking and event handlers. How the pieces fit:
 *
 * ```
 * KubeClient ─ KubeListWatchTransport ─ Reflector ─(replace/apply)─ IndexedStore ─ handlers
 *                                                                        │
 *                                       templates: list()/fetch()/getSingle()
 *                                       OnDemandStore: metadata in the store, bodies fetched
 * ```
 *
 * Handlers run synchronously inside the store update, after the store changed, so a handler
 * that reads the store sees the new state. A throwing handler is caught and reported to
 * `onError` as InformerHandlerError; the other handlers and the watch carry on.
 */
import { abortPromise } from '../../core/abort.js';
import { AbortedError, InvalidArgumentError } from '../../core/errors.js';
import type { KubeClient } from '../client/kube-client.js';
import type { KubeObject } from '../client/kube-object.js';
import { resourcePath, type ApiResource } from '../client/api-resource.js';
import { IndexedStore, type IndexedStoreOptions, type StoreChange } from './indexed-store.js';
import { InformerHandlerError } from './informer-errors.js';
import { KubeListWatchTransport } from './kube-list-watch-transport.js';
import type { ListWatchTransport } from './list-watch-transport.js';
import { Reflector, type ReflectorOptions, type ReflectorStats } from './reflector.js';

/** Event handlers; each is optional and must be synchronous. */
export interface InformerHandlers {
  /** `initial` is true for objects of the first list. */
  onAdd?(object: KubeObject, initial: boolean): void;
  onUpdate?(old: KubeObject, object: KubeObject): void;
  onDelete?(object: KubeObject): void;
}

/** Options of an Informer: store options, reflector options and the transport. */
export interface InformerOptions extends IndexedStoreOptions, ReflectorOptions {
  readonly transport: ListWatchTransport;
}

/** Options of Informer.forResource: as InformerOptions, without the transport. */
export type ResourceInformerOptions = Omit<InformerOptions, 'transport'> & {
  /** Watch one namespace; undefined watches all (or the cluster-scoped collection). */
  readonly namespace?: string;
};

/** Watches one collection into an indexed store. Constructing it does no I/O: call `run`. */
export class Informer {
  /** The store; read it with list/fetch/getSingle. */
  readonly store: IndexedStore;
  private readonly reflector: Reflector;
  private readonly syncWaiters = new Set<() => void>();
  private running = false;

  constructor(private readonly options: InformerOptions) {
    this.store = new IndexedStore(options);
    const store = this.store;
    // Sync is signalled after every complete list, also an empty one (which changes nothing).
    this.reflector = new Reflector(
      options.transport,
      {
        replace: (items, rv) => {
          store.replace(items, rv);
          this.releaseSyncWaiters();
        },
        apply: (type, object) => {
          store.apply(type, object);
        },
      },
      options,
    );
  }

  private releaseSyncWaiters(): void {
    for (const w of this.syncWaiters) w();
    this.syncWaiters.clear();
  }

  /** An informer over `ref` in `namespace` (or all namespaces) through `client`. */
  static forResource(
    client: KubeClient,
    ref: ApiResource,
    options: ResourceInformerOptions = {},
  ): Informer {
    const transport = new KubeListWatchTransport(client, resourcePath(ref, options.namespace));
    return new Informer({ ...options, transport });
  }

  /** True once the first complete list is in the store. */
  get hasSynced(): boolean {
    return this.store.listCount > 0;
  }

  /** The last resourceVersion seen (list, event or BOOKMARK); opaque. */
  get resourceVersion(): string {
    return this.reflector.resourceVersion;
  }

  /** Counters: lists, watches, events, bookmarks, errors, 410s. */
  get stats(): Readonly<ReflectorStats> {
    return this.reflector.stats;
  }

  /** Resolves when synced; rejects with AbortedError when `signal` aborts first. */
  waitForSync(signal: AbortSignal): Promise<void> {
    if (this.hasSynced) return Promise.resolve();
    return new Promise<void>((resolve, reject) => {
      const done = (): void => {
        signal.removeEventListener('abort', onAbort);
        resolve();
      };
      const onAbort = (): void => {
        this.syncWaiters.delete(done);
        reject(new AbortedError(`wait for ${this.store.name} to sync`, { cause: signal.reason }));
      };
      if (signal.aborted) {
        onAbort();
        return;
      }
      this.syncWaiters.add(done);
      signal.addEventListener('abort', onAbort, { once: true });
    });
  }

  /** Adds handlers; returns a function that removes them. */
  addHandlers(handlers: InformerHandlers): () => void {
    return this.store.subscribe((change) => {
      try {
        dispatch(handlers, change);
      } catch (err) {
        const report = this.options.onError;
        const wrapped = new InformerHandlerError(
          `${this.store.name}: ${change.type} handler threw`,
          { cause: err },
        );
        try {
          report?.(wrapped);
        } catch {
          // A throwing error callback must not break the store update.
        }
      }
    });
  }

  /** Lists, then watches until `signal` aborts; never rejects (failures go to `onError`). */
  async run(signal: AbortSignal): Promise<void> {
    if (this.running)
      throw new InvalidArgumentError(`${this.store.name}: informer is already running`);
    this.running = true;
    try {
      await Promise.race([this.reflector.run(signal), abortPromise(signal)]);
    } finally {
      this.running = false;
    }
  }
}

function dispatch(h: InformerHandlers, change: StoreChange): void {
  switch (change.type) {
    case 'added':
      h.onAdd?.(change.object, change.initial);
      return;
    case 'updated':
      h.onUpdate?.(change.old, change.object);
      return;
    case 'deleted':
      h.onDelete?.(change.object);
      return;
  }
}

/**
 * On-demand mode for large objects (Secrets): the informer's store keeps only a metadata stub
 * per object (see `metadataOnly`, passed as the store's `reduce`), indexed exactly like a full
 * store because keys are computed from the whole object before it is reduced. Bodies are
 * fetched from the API when read and kept in a TTL cache keyed by resourceVersion, so a
 * changed object is never served stale and an unread one costs only its stub.
 *
 * The reads are asynchronous, unlike IndexedStore's: whoever renders from it must await them.
 */
import type { KubeObject } from '../client/kube-object.js';
import { NotFoundError } from '../client/kube-errors.js';
import type { IndexedStore } from './indexed-store.js';
import {
  compileObjectPath,
  deleteAtPath,
  type ObjectPath,
} from '../../core/object-index/object-path.js';

/**
 * Reduces an object to the stub the on-demand store keeps (identity, version, labels). Built
 * by plain assignment in a fixed order so V8 keeps one compact shape for all stubs.
 */
export function metadataOnly(object: KubeObject): KubeObject {
  const m = object.metadata ?? {};
  const meta: Record<string, unknown> = {};
  if (m.name !== undefined) meta['name'] = m.name;
  if (m.namespace !== undefined) meta['namespace'] = m.namespace;
  if (m.uid !== undefined) meta['uid'] = m.uid;
  if (m.resourceVersion !== undefined) meta['resourceVersion'] = m.resourceVersion;
  if (m.labels !== undefined) meta['labels'] = m.labels;
  const stub: Record<string, unknown> = {};
  if (object.apiVersion !== undefined) stub['apiVersion'] = object.apiVersion;
  if (object.kind !== undefined) stub['kind'] = object.kind;
  stub['metadata'] = meta;
  return stub;
}

/** Reads one full object (e.g. `ResourceClient.get`). */
export type ObjectFetcher = (
  namespace: string | undefined,
  name: string,
  signal?: AbortSignal,
) => Promise<KubeObject>;

/** Options of an OnDemandStore. */
export interface OnDemandStoreOptions {
  /** How long a fetched body is kept (default 60,000 ms). */
  readonly ttlMs?: number;
  /** Fields stripped from fetched bodies (default `metadata.managedFields`). */
  readonly ignoreFields?: readonly string[];
  /** Milliseconds clock (tests). */
  readonly now?: () => number;
}

interface Cached {
  readonly resourceVersion: string | undefined;
  readonly object: KubeObject;
  readonly expires: number;
}

/** Async list/fetch/getSingle over a metadata-only IndexedStore. */
export class OnDemandStore {
  private readonly cache = new Map<string, Cached>();
  private readonly inflight = new Map<string, Promise<KubeObject | undefined>>();
  private readonly ignore: readonly ObjectPath[];
  private readonly now: () => number;
  private nextSweep = Number.NEGATIVE_INFINITY;
  /** Bodies fetched from the API since construction (cache misses). */
  fetches = 0;

  constructor(
    /** The informer's store, built with `reduce: metadataOnly`. */
    readonly stubs: IndexedStore,
    private readonly fetcher: ObjectFetcher,
    private readonly options: OnDemandStoreOptions = {},
  ) {
    this.ignore = (options.ignoreFields ?? ['metadata.managedFields']).map(compileObjectPath);
    this.now = options.now ?? Date.now;
  }

  /** Every object, fetched as needed. */
  list(signal?: AbortSignal): Promise<KubeObject[]> {
    return this.resolve(this.stubs.list(), signal);
  }

  /** Objects whose composite key starts with `keys`, fetched as needed. */
  fetch(...keys: string[]): Promise<KubeObject[]> {
    return this.resolve(this.stubs.fetch(...keys));
  }

  /** The one object matching `keys`; null when none; AmbiguousLookupError when several. */
  async getSingle(...keys: string[]): Promise<KubeObject | null> {
    const stub = this.stubs.getSingle(...keys);
    if (!stub) return null;
    const [found] = await this.resolve([stub]);
    return found ?? null;
  }

  private async resolve(stubs: readonly KubeObject[], signal?: AbortSignal): Promise<KubeObject[]> {
    this.sweep();
    const bodies = await Promise.all(stubs.map((s) => this.body(s, signal)));
    return bodies.filter((b): b is KubeObject => b !== undefined);
  }

  private body(stub: KubeObject, signal?: AbortSignal): Promise<KubeObject | undefined> {
    const ns = stub.metadata?.namespace;
    const name = stub.metadata?.name ?? '';
    const key = ns ? `${ns}/${name}` : name;
    const rv = stub.metadata?.resourceVersion;
    const hit = this.cache.get(key);
    if (hit && hit.resourceVersion === rv && hit.expires > this.now())
      return Promise.resolve(hit.object);
    const flightKey = `${key}@${rv ?? ''}`;
    const pending = this.inflight.get(flightKey);
    if (pending) return pending;
    const p = (async () => {
      try {
        this.fetches++;
        const object = await this.fetcher(ns, name, signal);
        for (const path of this.ignore) deleteAtPath(object, path);
        this.cache.set(key, { resourceVersion: rv, object, expires: this.now() + this.ttl });
        return object;
      } catch (err) {
        // Deleted between the watch event and the read: the watch will remove the stub.
        if (err instanceof NotFoundError) return undefined;
        throw err;
      } finally {
        this.inflight.delete(flightKey);
      }
    })();
    this.inflight.set(flightKey, p);
    return p;
  }

  private get ttl(): number {
    return this.options.ttlMs ?? 60_000;
  }

  /** Drops expired bodies, at most ten times per TTL so reads stay O(matches), not O(cache). */
  private sweep(): void {
    const t = this.now();
    if (t < this.nextSweep) return;
    this.nextSweep = t + this.ttl / 10;
    for (const [k, v] of this.cache) if (v.expires <= t) this.cache.delete(k);
  }

  /** Number of cached bodies (after expiry sweeps). */
  get cachedCount(): number {
    return this.cache.size;
  }
}

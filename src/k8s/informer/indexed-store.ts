/**
 * The in-memory store an informer fills: objects by `namespace/name`, plus an index of
 * composite keys built from `indexBy` expressions, so templates can look objects up by a full
 * key or a key prefix (`fetch('default')` for a namespace, `fetch('default', 'web')` for one).
 *
 * Indexing, ordering and lookups are those of the shared CompositeIndex
 * (src/core/object-index), which the templating FixtureStore uses too.
 *
 * Before storing, objects failing the client-side field selector are dropped (an update that
 * stops matching becomes a delete) and ignore-fields are stripped in place: the store owns the
 * objects handed to it, and callers must treat what it returns as read-only.
 */
import { objectKey } from '../../core/keys.js';
import { CompositeIndex } from '../../core/object-index/composite-index.js';
import {
  compileObjectPath,
  deleteAtPath,
  type ObjectPath,
} from '../../core/object-index/object-path.js';
import type { KubeObject } from '../client/kube-object.js';
import { diffByUid } from './diff-by-uid.js';
import { parseFieldSelector, type FieldSelector } from './field-selector.js';
import type { ReflectorSink } from './reflector.js';

/** Default `indexBy`: namespace, then name. */
export const DEFAULT_INDEX_BY: readonly string[] = ['metadata.namespace', 'metadata.name'];
/** Default ignore-fields: managedFields are large and never useful to templates. */
export const DEFAULT_IGNORE_FIELDS: readonly string[] = ['metadata.managedFields'];

/** Options of an IndexedStore. */
export interface IndexedStoreOptions {
  /** Name for messages (e.g. the watched resource's key). */
  readonly name?: string;
  readonly indexBy?: readonly string[];
  /** Client-side field selector, e.g. `spec.type!=ExternalName`. */
  readonly fieldSelector?: string;
  readonly ignoreFields?: readonly string[];
  /**
   * Called after keys are computed and before storing, to keep less than the whole object
   * (on-demand mode keeps metadata only).
   */
  readonly reduce?: (object: KubeObject) => KubeObject;
}

/** A change of the store, delivered synchronously to listeners. */
export type StoreChange =
  | { readonly type: 'added'; readonly object: KubeObject; readonly initial: boolean }
  | { readonly type: 'updated'; readonly old: KubeObject; readonly object: KubeObject }
  | { readonly type: 'deleted'; readonly object: KubeObject };

/** Indexed objects of one resource type; the ReflectorSink of an informer. */
export class IndexedStore implements ReflectorSink {
  readonly name: string;
  readonly indexBy: readonly string[];
  private readonly index: CompositeIndex<KubeObject>;
  private readonly ignore: readonly ObjectPath[];
  private readonly selector: FieldSelector | undefined;
  private readonly listeners = new Set<(change: StoreChange) => void>();
  private replaced = 0;
  private rv = '';

  /** Compiles every expression; throws ObjectPathError for a bad one (constructors do no I/O). */
  constructor(private readonly options: IndexedStoreOptions = {}) {
    this.name = options.name ?? 'store';
    this.indexBy = options.indexBy ?? DEFAULT_INDEX_BY;
    this.index = new CompositeIndex(this.name, this.indexBy);
    this.ignore = (options.ignoreFields ?? DEFAULT_IGNORE_FIELDS).map(compileObjectPath);
    this.selector =
      options.fieldSelector !== undefined && options.fieldSelector.trim() !== ''
        ? parseFieldSelector(options.fieldSelector)
        : undefined;
  }

  /** Number of objects. */
  get size(): number {
    return this.index.size;
  }

  /** How many complete lists the store has received (0: not synced yet). */
  get listCount(): number {
    return this.replaced;
  }

  /** resourceVersion of the last complete list. */
  get listResourceVersion(): string {
    return this.rv;
  }

  /** Subscribes to changes; returns the unsubscribe function. Listeners must not throw. */
  subscribe(listener: (change: StoreChange) => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  /** The object stored under `namespace/name` (or `name` for cluster-scoped objects). */
  get(key: string): KubeObject | undefined {
    return this.index.get(key);
  }

  /** Every object, ordered by first composite key then `namespace/name`. */
  list(): readonly KubeObject[] {
    return this.index.list();
  }

  /** Objects whose composite key starts with `keys`; no keys returns every object. */
  fetch(...keys: string[]): readonly KubeObject[] {
    return this.index.fetch(...keys);
  }

  /** The one object matching `keys`; null when none; AmbiguousLookupError when several. */
  getSingle(...keys: string[]): KubeObject | null {
    return this.index.getSingle(...keys);
  }

  /** Replaces the content with a complete list, emitting synthetic events for the difference. */
  replace(items: KubeObject[], resourceVersion: string): void {
    const initial = this.replaced === 0;
    this.replaced++;
    this.rv = resourceVersion;
    const fresh: { object: KubeObject; keys: string[][] }[] = [];
    for (const item of items) {
      const prepared = this.prepare(item);
      if (prepared) fresh.push(prepared);
    }
    const byObject = new Map<KubeObject, string[][]>(fresh.map((f) => [f.object, f.keys]));
    const deltas = diffByUid(
      this.index.values(),
      fresh.map((f) => f.object),
      objectKey,
    );
    for (const d of deltas) {
      const key = objectKey(d.object);
      if (d.type === 'deleted') {
        this.index.delete(key);
        this.emit({ type: 'deleted', object: d.object });
        continue;
      }
      const old = this.index.get(key);
      this.index.set(key, d.object, byObject.get(d.object) ?? []);
      if (d.type === 'updated') this.emit({ type: 'updated', old: d.old, object: d.object });
      else if (old) this.emit({ type: 'updated', old, object: d.object });
      else this.emit({ type: 'added', object: d.object, initial });
    }
  }

  /** Applies one watch event. */
  apply(type: 'ADDED' | 'MODIFIED' | 'DELETED', object: KubeObject): void {
    const key = objectKey(object);
    const old = this.index.get(key);
    if (type === 'DELETED') {
      if (!old) return;
      this.index.delete(key);
      this.emit({ type: 'deleted', object: old });
      return;
    }
    const prepared = this.prepare(object);
    if (!prepared) {
      // It stopped matching the field selector: for the store's readers it is gone.
      if (old) {
        this.index.delete(key);
        this.emit({ type: 'deleted', object: old });
      }
      return;
    }
    this.index.set(key, prepared.object, prepared.keys);
    this.emit(
      old
        ? { type: 'updated', old, object: prepared.object }
        : { type: 'added', object: prepared.object, initial: false },
    );
  }

  /** Field selector, ignore-fields, keys, reduction; undefined when filtered out. */
  private prepare(item: KubeObject): { object: KubeObject; keys: string[][] } | undefined {
    if (this.selector && !this.selector.matches(item)) return undefined;
    for (const p of this.ignore) deleteAtPath(item, p);
    const keys = this.index.keysOf(item);
    const object = this.options.reduce ? this.options.reduce(item) : item;
    return { object, keys };
  }

  private emit(change: StoreChange): void {
    for (const l of this.listeners) l(change);
  }
}

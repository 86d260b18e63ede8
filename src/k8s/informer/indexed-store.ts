/**
 * The in-memory store an informer fills: objects by `namespace/name`, plus an index of
 * composite keys built from `indexBy` expressions, so templates can look objects up by a full
 * key or a key prefix (`fetch('default')` for a namespace, `fetch('default', 'web')` for one).
 *
 * Semantics (shared with the templating FixtureStore's interface `ResourceStore`):
 * - `list()` returns every object ordered by its first composite key, then `namespace/name`;
 * - `fetch(...keys)` returns every object with a composite key starting with `keys` (no keys:
 *   all), in the same order; more keys than `indexBy` entries throws;
 * - `getSingle(...keys)` returns the one match, null for none, and throws AmbiguousLookupError
 *   for several.
 * - An expression with a wildcard (`spec.rules[*].host`) gives one key per value, so an object
 *   can sit under several composite keys (the cartesian product, capped at 256); a missing
 *   field gives the key `''`.
 *
 * Before storing, objects failing the client-side field selector are dropped (an update that
 * stops matching becomes a delete) and ignore-fields are stripped in place: the store owns the
 * objects handed to it, and callers must treat what it returns as read-only.
 */
import { InvalidArgumentError } from '../../core/errors.js';
import { objectKey } from '../../core/keys.js';
import type { KubeObject } from '../client/kube-object.js';
import { diffByUid } from './diff-by-uid.js';
import { parseFieldSelector, type FieldSelector } from './field-selector.js';
import { AmbiguousLookupError } from './informer-errors.js';
import { compileObjectPath, deleteAtPath, pathKeys, type ObjectPath } from './object-path.js';
import type { ReflectorSink } from './reflector.js';

const SEP = '\u0000';
const MAX_KEYS_PER_OBJECT = 256;

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

interface Entry {
  readonly object: KubeObject;
  readonly keys: readonly (readonly string[])[];
  readonly sortKey: string;
}

/** Indexed objects of one resource type; the ReflectorSink of an informer. */
export class IndexedStore implements ReflectorSink {
  readonly name: string;
  readonly indexBy: readonly string[];
  private readonly paths: readonly ObjectPath[];
  private readonly ignore: readonly ObjectPath[];
  private readonly selector: FieldSelector | undefined;
  private readonly entries = new Map<string, Entry>();
  /** index i: prefixes of length i+1 -> primary keys. */
  private readonly byPrefix: Map<string, Set<string>>[];
  private sorted: KubeObject[] | undefined;
  private readonly listeners = new Set<(change: StoreChange) => void>();
  private replaced = 0;
  private rv = '';

  /** Compiles every expression; throws ObjectPathError for a bad one (constructors do no I/O). */
  constructor(private readonly options: IndexedStoreOptions = {}) {
    this.name = options.name ?? 'store';
    this.indexBy = options.indexBy ?? DEFAULT_INDEX_BY;
    this.paths = this.indexBy.map(compileObjectPath);
    this.ignore = (options.ignoreFields ?? DEFAULT_IGNORE_FIELDS).map(compileObjectPath);
    this.selector =
      options.fieldSelector !== undefined && options.fieldSelector.trim() !== ''
        ? parseFieldSelector(options.fieldSelector)
        : undefined;
    this.byPrefix = this.paths.map(() => new Map<string, Set<string>>());
  }

  /** Number of objects. */
  get size(): number {
    return this.entries.size;
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
    return this.entries.get(key)?.object;
  }

  /** Every object, ordered by first composite key then `namespace/name`. */
  list(): readonly KubeObject[] {
    this.sorted ??= [...this.entries.values()]
      .sort((a, b) => (a.sortKey < b.sortKey ? -1 : a.sortKey > b.sortKey ? 1 : 0))
      .map((e) => e.object);
    return this.sorted;
  }

  /** Objects whose composite key starts with `keys`; no keys returns every object. */
  fetch(...keys: string[]): readonly KubeObject[] {
    if (keys.length === 0) return this.list();
    if (keys.length > this.paths.length)
      throw new InvalidArgumentError(
        `${this.name}.fetch: ${keys.length} keys given but indexBy has ${this.paths.length} (${this.indexBy.join(', ')})`,
      );
    const hits = this.byPrefix[keys.length - 1]?.get(keys.map(String).join(SEP));
    if (!hits) return [];
    const found: Entry[] = [];
    for (const k of hits) {
      const e = this.entries.get(k);
      if (e) found.push(e);
    }
    return found
      .sort((a, b) => (a.sortKey < b.sortKey ? -1 : a.sortKey > b.sortKey ? 1 : 0))
      .map((e) => e.object);
  }

  /** The one object matching `keys`; null when none; AmbiguousLookupError when several. */
  getSingle(...keys: string[]): KubeObject | null {
    const found = this.fetch(...keys);
    if (found.length > 1)
      throw new AmbiguousLookupError(
        `${this.name}.getSingle(${keys.map((k) => JSON.stringify(k)).join(', ')}): ${found.length} objects match, expected at most one`,
      );
    return found[0] ?? null;
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
      [...this.entries.values()].map((e) => e.object),
      fresh.map((f) => f.object),
      objectKey,
    );
    for (const d of deltas) {
      const key = objectKey(d.object);
      if (d.type === 'deleted') {
        this.remove(key);
        this.emit({ type: 'deleted', object: d.object });
        continue;
      }
      const old = this.entries.get(key);
      if (old) this.remove(key);
      this.insert(key, d.object, byObject.get(d.object) ?? []);
      if (d.type === 'updated') this.emit({ type: 'updated', old: d.old, object: d.object });
      else if (old) this.emit({ type: 'updated', old: old.object, object: d.object });
      else this.emit({ type: 'added', object: d.object, initial });
    }
  }

  /** Applies one watch event. */
  apply(type: 'ADDED' | 'MODIFIED' | 'DELETED', object: KubeObject): void {
    const key = objectKey(object);
    const old = this.entries.get(key);
    if (type === 'DELETED') {
      if (!old) return;
      this.remove(key);
      this.emit({ type: 'deleted', object: old.object });
      return;
    }
    const prepared = this.prepare(object);
    if (!prepared) {
      // It stopped matching the field selector: for the store's readers it is gone.
      if (old) {
        this.remove(key);
        this.emit({ type: 'deleted', object: old.object });
      }
      return;
    }
    if (old) this.remove(key);
    this.insert(key, prepared.object, prepared.keys);
    this.emit(
      old
        ? { type: 'updated', old: old.object, object: prepared.object }
        : { type: 'added', object: prepared.object, initial: false },
    );
  }

  /** Field selector, ignore-fields, keys, reduction; undefined when filtered out. */
  private prepare(item: KubeObject): { object: KubeObject; keys: string[][] } | undefined {
    if (this.selector && !this.selector.matches(item)) return undefined;
    for (const p of this.ignore) deleteAtPath(item, p);
    const keys = compositeKeys(this.paths.map((p) => pathKeys(item, p)));
    const object = this.options.reduce ? this.options.reduce(item) : item;
    return { object, keys };
  }

  private insert(key: string, object: KubeObject, keys: readonly (readonly string[])[]): void {
    const first = keys[0] ?? [];
    this.entries.set(key, { object, keys, sortKey: `${first.join(SEP)}${SEP}${SEP}${key}` });
    for (const composite of keys) {
      for (let len = 1; len <= composite.length; len++) {
        const map = this.byPrefix[len - 1];
        if (!map) continue;
        const prefix = composite.slice(0, len).join(SEP);
        let set = map.get(prefix);
        if (!set) map.set(prefix, (set = new Set()));
        set.add(key);
      }
    }
    this.sorted = undefined;
  }

  private remove(key: string): void {
    const entry = this.entries.get(key);
    if (!entry) return;
    this.entries.delete(key);
    for (const composite of entry.keys) {
      for (let len = 1; len <= composite.length; len++) {
        const map = this.byPrefix[len - 1];
        const prefix = composite.slice(0, len).join(SEP);
        const set = map?.get(prefix);
        if (!set) continue;
        set.delete(key);
        if (set.size === 0) map?.delete(prefix);
      }
    }
    this.sorted = undefined;
  }

  private emit(change: StoreChange): void {
    for (const l of this.listeners) l(change);
  }
}

/** The cartesian product of per-expression key lists, capped at MAX_KEYS_PER_OBJECT. */
function compositeKeys(perPath: readonly string[][]): string[][] {
  let out: string[][] = [[]];
  for (const values of perPath) {
    const next: string[][] = [];
    for (const prefix of out)
      for (const v of values) {
        if (next.length >= MAX_KEYS_PER_OBJECT) break;
        next.push([...prefix, v]);
      }
    out = next;
  }
  return out;
}

/**
 * The composite-key index behind every `resources.<name>` store: the live informer store and
 * the fixture store of `haptic validate` / `haptic render` both keep their objects here, so a
 * template gets the same answers from `list`, `fetch` and `getSingle` in both.
 *
 * Rules:
 * - each `indexBy` expression yields one key per value it reaches (a wildcard such as
 *   `spec.rules[*].host` yields several), and `''` when it reaches nothing; an object sits under
 *   the cartesian product of those keys, capped at MAX_KEYS_PER_OBJECT composite keys;
 * - `list()` orders objects by their first composite key, then by primary key;
 * - `fetch(...keys)` returns the objects with a composite key starting with `keys` (no keys: all)
 *   in the same order; more keys than `indexBy` entries throws InvalidArgumentError;
 * - `getSingle(...keys)` returns the one match, null for none, and throws AmbiguousLookupError
 *   for several.
 */
import { InvalidArgumentError } from '../errors.js';
import { AmbiguousLookupError } from './object-index-errors.js';
import { compileObjectPath, pathKeys, type ObjectPath } from './object-path.js';

const SEP = '\u0000';

/** Most composite keys one object is indexed under (wildcards multiply). */
export const MAX_KEYS_PER_OBJECT = 256;

interface Entry<T> {
  readonly object: T;
  readonly keys: readonly (readonly string[])[];
  readonly sortKey: string;
}

/** Objects by primary key, plus prefix lookups over composite `indexBy` keys. */
export class CompositeIndex<T> {
  private readonly paths: readonly ObjectPath[];
  private readonly entries = new Map<string, Entry<T>>();
  /** index i: joined key prefixes of length i+1 -> primary keys. */
  private readonly byPrefix: Map<string, Set<string>>[];
  private sorted: T[] | undefined;

  /** Compiles every expression; throws ObjectPathError for a bad one. */
  constructor(
    /** Name for messages (e.g. the watched resource's key). */
    readonly name: string,
    readonly indexBy: readonly string[],
  ) {
    this.paths = indexBy.map(compileObjectPath);
    this.byPrefix = this.paths.map(() => new Map<string, Set<string>>());
  }

  /** Number of objects. */
  get size(): number {
    return this.entries.size;
  }

  /** The composite keys `object` is indexed under. */
  keysOf(object: unknown): string[][] {
    return compositeKeys(this.paths.map((p) => pathKeys(object, p)));
  }

  /** The object stored under `primary`. */
  get(primary: string): T | undefined {
    return this.entries.get(primary)?.object;
  }

  /** Every stored object, in insertion order. */
  values(): T[] {
    return [...this.entries.values()].map((e) => e.object);
  }

  /**
   * Stores `object` under `primary`, replacing what was there; `keys` default to the object's
   * own (a caller that stores a reduced object passes the keys of the full one).
   */
  set(
    primary: string,
    object: T,
    keys: readonly (readonly string[])[] = this.keysOf(object),
  ): void {
    this.delete(primary);
    const first = keys[0] ?? [];
    this.entries.set(primary, {
      object,
      keys,
      sortKey: `${first.join(SEP)}${SEP}${SEP}${primary}`,
    });
    for (const composite of keys) {
      for (let len = 1; len <= composite.length; len++) {
        const map = this.byPrefix[len - 1];
        if (!map) continue;
        const prefix = composite.slice(0, len).join(SEP);
        let set = map.get(prefix);
        if (!set) map.set(prefix, (set = new Set()));
        set.add(primary);
      }
    }
    this.sorted = undefined;
  }

  /** Removes the object under `primary`; returns it, or undefined when there was none. */
  delete(primary: string): T | undefined {
    const entry = this.entries.get(primary);
    if (!entry) return undefined;
    this.entries.delete(primary);
    for (const composite of entry.keys) {
      for (let len = 1; len <= composite.length; len++) {
        const map = this.byPrefix[len - 1];
        const prefix = composite.slice(0, len).join(SEP);
        const set = map?.get(prefix);
        if (!set) continue;
        set.delete(primary);
        if (set.size === 0) map?.delete(prefix);
      }
    }
    this.sorted = undefined;
    return entry.object;
  }

  /** Every object, ordered by first composite key then primary key. */
  list(): readonly T[] {
    this.sorted ??= sortEntries([...this.entries.values()]);
    return this.sorted;
  }

  /** Objects whose composite key starts with `keys`; no keys returns every object. */
  fetch(...keys: string[]): readonly T[] {
    if (keys.length === 0) return this.list();
    if (keys.length > this.paths.length)
      throw new InvalidArgumentError(
        `${this.name}.fetch: ${keys.length} keys given but indexBy has ${this.paths.length} (${this.indexBy.join(', ')})`,
      );
    const hits = this.byPrefix[keys.length - 1]?.get(keys.map(String).join(SEP));
    if (!hits) return [];
    const found: Entry<T>[] = [];
    for (const k of hits) {
      const e = this.entries.get(k);
      if (e) found.push(e);
    }
    return sortEntries(found);
  }

  /** The one object matching `keys`; null when none; AmbiguousLookupError when several. */
  getSingle(...keys: string[]): T | null {
    const found = this.fetch(...keys);
    if (found.length > 1)
      throw new AmbiguousLookupError(
        `${this.name}.getSingle(${keys.map((k) => JSON.stringify(k)).join(', ')}): ${found.length} objects match, expected at most one`,
      );
    return found[0] ?? null;
  }
}

function sortEntries<T>(entries: Entry<T>[]): T[] {
  return entries
    .sort((a, b) => (a.sortKey < b.sortKey ? -1 : a.sortKey > b.sortKey ? 1 : 0))
    .map((e) => e.object);
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

/** An in-memory ResourceStore built from a fixed list of objects (tests, `haptic render`). */
import { InvalidArgumentError } from '../core/errors.js';
import { jsonPathKey } from './json-path.js';
import type { ResourceStore } from './resource-store.js';

const SEP = '\u0000';

/** Indexes objects by their `indexBy` JSONPath keys once, so fetch is a map lookup. */
export class FixtureStore implements ResourceStore {
  private readonly sorted: readonly object[];
  /** prefix length -> joined key prefix -> objects, in list order. */
  private readonly byPrefix: readonly Map<string, object[]>[];

  constructor(
    readonly name: string,
    objects: readonly object[],
    readonly indexBy: readonly string[],
  ) {
    const keyed = objects.map((o) => ({ o, keys: indexBy.map((expr) => jsonPathKey(o, expr)) }));
    keyed.sort((a, b) => {
      for (let i = 0; i < a.keys.length; i++) {
        const x = a.keys[i] ?? '';
        const y = b.keys[i] ?? '';
        if (x !== y) return x < y ? -1 : 1;
      }
      return 0;
    });
    this.sorted = keyed.map((k) => k.o);
    const maps: Map<string, object[]>[] = [];
    for (let len = 1; len <= indexBy.length; len++) {
      const m = new Map<string, object[]>();
      for (const { o, keys } of keyed) {
        const k = keys.slice(0, len).join(SEP);
        const bucket = m.get(k);
        if (bucket) bucket.push(o);
        else m.set(k, [o]);
      }
      maps.push(m);
    }
    this.byPrefix = maps;
  }

  list(): readonly object[] {
    return this.sorted;
  }

  fetch(...keys: string[]): readonly object[] {
    if (keys.length === 0) return this.sorted;
    if (keys.length > this.indexBy.length) {
      throw new InvalidArgumentError(
        `resources.${this.name}.fetch: ${keys.length} keys given but indexBy has ${this.indexBy.length} (${this.indexBy.join(', ')})`,
      );
    }
    return this.byPrefix[keys.length - 1]?.get(keys.map(String).join(SEP)) ?? [];
  }

  getSingle(...keys: string[]): object | null {
    const found = this.fetch(...keys);
    if (found.length > 1) {
      throw new InvalidArgumentError(
        `resources.${this.name}.getSingle(${keys.map((k) => JSON.stringify(k)).join(', ')}): ${found.length} objects match, expected at most one`,
      );
    }
    return found[0] ?? null;
  }
}

/** An empty store (a watched resource with no objects). */
export function emptyStore(name: string, indexBy: readonly string[]): ResourceStore {
  return new FixtureStore(name, [], indexBy);
}

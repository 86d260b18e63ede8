/**
 * An in-memory ResourceStore built from a fixed list of objects (tests, `haptic validate`,
 * `haptic render`). It indexes with the same CompositeIndex as the controller's informer store,
 * so a template gets the same answers from fixtures as from the cluster (wildcards included).
 */
import { objectKey } from '../core/keys.js';
import { CompositeIndex } from '../core/object-index/composite-index.js';
import type { ResourceStore } from './resource-store.js';

/** Indexes objects by their `indexBy` keys once, so fetch is a map lookup. */
export class FixtureStore implements ResourceStore {
  private readonly index: CompositeIndex<object>;

  /** Throws ObjectPathError when an `indexBy` expression is not supported. */
  constructor(
    readonly name: string,
    objects: readonly object[],
    readonly indexBy: readonly string[],
  ) {
    this.index = new CompositeIndex(`resources.${name}`, indexBy);
    // Fixtures may repeat a namespace/name: the position keeps each and breaks ties in list order.
    const width = String(objects.length).length;
    objects.forEach((o, i) => {
      this.index.set(`${objectKey(o)}\u0000${String(i).padStart(width, '0')}`, o);
    });
  }

  list(): readonly object[] {
    return this.index.list();
  }

  fetch(...keys: string[]): readonly object[] {
    return this.index.fetch(...keys);
  }

  getSingle(...keys: string[]): object | null {
    return this.index.getSingle(...keys);
  }
}

/** An empty store (a watched resource with no objects). */
export function emptyStore(name: string, indexBy: readonly string[]): ResourceStore {
  return new FixtureStore(name, [], indexBy);
}

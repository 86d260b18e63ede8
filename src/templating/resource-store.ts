/**
 * What templates see as `resources.<name>`: a read-only, indexed view of one watched resource
 * type. The fixture store implements it for tests and `haptic render`; the informer store of the
 * controller implements the same interface, so templates behave identically in both.
 */

/** A read-only, indexed collection of Kubernetes objects of one watched resource type. */
export interface ResourceStore {
  /** Every object, in a stable order (by index keys). */
  list(): readonly object[];
  /**
   * Objects whose `indexBy` keys start with `keys` (in `indexBy` order; fewer keys than
   * `indexBy` entries match a prefix). No keys returns every object.
   */
  fetch(...keys: string[]): readonly object[];
  /** The one object matching `keys`, null when none; throws when more than one matches. */
  getSingle(...keys: string[]): object | null;
}

/** Recursive Object.freeze: events are immutable facts shared by every subscriber. */

/** A read-only view of `T` at every depth. */
export type DeepReadonly<T> = T extends (...args: never[]) => unknown
  ? T
  : T extends readonly (infer U)[]
    ? readonly DeepReadonly<U>[]
    : T extends object
      ? { readonly [K in keyof T]: DeepReadonly<T[K]> }
      : T;

/**
 * Freezes `value` and everything reachable from it, in place, and returns it. Typed arrays and
 * Buffers are left alone (they cannot be frozen); already-frozen objects are not walked again,
 * which keeps freezing a fresh event wrapping a large frozen payload O(new fields).
 */
export function deepFreeze<T>(value: T): DeepReadonly<T> {
  freezeInPlace(value);
  return value as DeepReadonly<T>;
}

function freezeInPlace(value: unknown): void {
  if (value === null || typeof value !== 'object' || Object.isFrozen(value)) return;
  if (ArrayBuffer.isView(value)) return;
  Object.freeze(value);
  if (value instanceof Map || value instanceof Set) {
    // Map/Set contents stay mutable through their methods; events should use arrays/records.
    return;
  }
  for (const key of Object.keys(value)) freezeInPlace((value as Record<string, unknown>)[key]);
}

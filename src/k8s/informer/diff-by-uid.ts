/**
 * What changed between the store and a fresh list: the synthetic events a relist emits. Objects
 * are matched by uid, not by name, so a delete + re-create under the same name during an
 * outage shows up as a delete followed by an add (handlers see the new uid).
 */
import type { KubeObject } from '../client/kube-object.js';

/** One change found by diffByUid. */
export type ObjectDelta =
  | { readonly type: 'added'; readonly object: KubeObject }
  | { readonly type: 'updated'; readonly old: KubeObject; readonly object: KubeObject }
  | { readonly type: 'deleted'; readonly object: KubeObject };

function uidOf(o: KubeObject, fallback: string): string {
  return o.metadata?.uid ?? `no-uid:${fallback}`;
}

/**
 * Deletes first (so a re-created name is free again), then adds and updates in list order.
 * An object whose resourceVersion is unchanged produces no event. `keyOf` names objects
 * lacking a uid (fakes, partial objects).
 */
export function diffByUid(
  current: Iterable<KubeObject>,
  fresh: readonly KubeObject[],
  keyOf: (o: KubeObject) => string,
): ObjectDelta[] {
  const before = new Map<string, KubeObject>();
  for (const o of current) before.set(uidOf(o, keyOf(o)), o);
  const seen = new Set<string>();
  const deletes: ObjectDelta[] = [];
  const others: ObjectDelta[] = [];
  for (const o of fresh) {
    const uid = uidOf(o, keyOf(o));
    seen.add(uid);
    const old = before.get(uid);
    if (!old) others.push({ type: 'added', object: o });
    else if (old.metadata?.resourceVersion !== o.metadata?.resourceVersion)
      others.push({ type: 'updated', old, object: o });
  }
  for (const [uid, o] of before) if (!seen.has(uid)) deletes.push({ type: 'deleted', object: o });
  return [...deletes, ...others];
}

/** Object keys: `namespace/name` for namespaced objects, `name` for cluster-scoped ones. */

/** Minimal shape of a Kubernetes object's metadata needed for a key. */
export interface ObjectRefLike {
  readonly metadata?: { readonly name?: string; readonly namespace?: string } | undefined;
}

/** `namespace/name`, or `name` when the object has no namespace. */
export function objectKey(obj: ObjectRefLike): string {
  const name = obj.metadata?.name ?? '';
  const ns = obj.metadata?.namespace;
  return ns ? `${ns}/${name}` : name;
}

/** Splits a key made by objectKey into namespace (may be '') and name. */
export function splitObjectKey(key: string): { namespace: string; name: string } {
  const slash = key.indexOf('/');
  return slash === -1
    ? { namespace: '', name: key }
    : { namespace: key.slice(0, slash), name: key.slice(slash + 1) };
}

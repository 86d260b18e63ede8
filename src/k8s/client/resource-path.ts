/** Builds REST paths (`/api/v1/namespaces/ns/configmaps/name`) from a resolved resource. */

/** A resource resolved by the REST mapper (or written by hand for core types). */
export interface ResourceRef {
  /** `v1` for the core group, otherwise `group/version`. */
  readonly apiVersion: string;
  /** Plural resource name, e.g. `configmaps`. */
  readonly resource: string;
  readonly namespaced: boolean;
}

/**
 * The collection path of `ref` (all namespaces when `namespace` is undefined), or the object
 * path when `name` is given, optionally with a subresource (`status`).
 */
export function resourcePath(
  ref: ResourceRef,
  namespace?: string,
  name?: string,
  subresource?: string,
): string {
  const base = ref.apiVersion.includes('/') ? `/apis/${ref.apiVersion}` : `/api/${ref.apiVersion}`;
  const ns =
    ref.namespaced && namespace !== undefined && namespace !== ''
      ? `/namespaces/${encodeURIComponent(namespace)}`
      : '';
  let path = `${base}${ns}/${ref.resource}`;
  if (name !== undefined) path += `/${encodeURIComponent(name)}`;
  if (name !== undefined && subresource !== undefined) path += `/${subresource}`;
  return path;
}

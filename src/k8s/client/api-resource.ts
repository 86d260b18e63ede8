/**
 * The one resource descriptor of the k8s layer and the one REST path builder. The REST mapper
 * resolves descriptors from apiVersion and kind; code that talks to well-known resources
 * (Leases, CRDs, core kinds) writes them by hand. Nobody guesses a plural.
 */

/** A resolved API resource: group ('' for core), version, plural resource name, scope. */
export interface ApiResource {
  /** API group, '' for the core group. */
  readonly group: string;
  readonly version: string;
  /** Plural resource name, e.g. `httproutes`. */
  readonly resource: string;
  readonly namespaced: boolean;
}

/** `group/version`, or `version` for the core group: the apiVersion of the resource's objects. */
export function apiVersionOf(res: Pick<ApiResource, 'group' | 'version'>): string {
  return res.group === '' ? res.version : `${res.group}/${res.version}`;
}

/** Splits an apiVersion (`v1` or `group/version`) into group and version. */
export function splitApiVersion(apiVersion: string): { group: string; version: string } {
  const slash = apiVersion.indexOf('/');
  return slash === -1
    ? { group: '', version: apiVersion }
    : { group: apiVersion.slice(0, slash), version: apiVersion.slice(slash + 1) };
}

/** A descriptor from an apiVersion (`v1`, `apps/v1`), a plural and a scope. */
export function apiResource(
  apiVersion: string,
  resource: string,
  namespaced: boolean,
): ApiResource {
  return { ...splitApiVersion(apiVersion), resource, namespaced };
}

/**
 * The collection path of `res` (all namespaces when `namespace` is undefined or empty), or the
 * object path when `name` is given, optionally with a subresource (`status`).
 */
export function resourcePath(
  res: ApiResource,
  namespace?: string,
  name?: string,
  subresource?: string,
): string {
  const base = res.group === '' ? `/api/${res.version}` : `/apis/${res.group}/${res.version}`;
  const ns =
    res.namespaced && namespace !== undefined && namespace !== ''
      ? `/namespaces/${encodeURIComponent(namespace)}`
      : '';
  let path = `${base}${ns}/${res.resource}`;
  if (name !== undefined) path += `/${encodeURIComponent(name)}`;
  if (name !== undefined && subresource !== undefined) path += `/${subresource}`;
  return path;
}

/** apiextensions.k8s.io/v1 CustomResourceDefinitions (cluster-scoped). */
export const CUSTOM_RESOURCE_DEFINITIONS: ApiResource = apiResource(
  'apiextensions.k8s.io/v1',
  'customresourcedefinitions',
  false,
);

/** coordination.k8s.io/v1 Leases (namespaced). */
export const LEASES: ApiResource = apiResource('coordination.k8s.io/v1', 'leases', true);

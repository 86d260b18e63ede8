/**
 * The resource descriptor the SSA kit writes to. The REST mapper resolves it from apiVersion and
 * kind; callers never guess a plural.
 */

/** A resolved API resource: group ('' for core), version, plural resource name, scope. */
export interface ApiResource {
  readonly group: string;
  readonly version: string;
  /** Plural resource name, e.g. `httproutes`. */
  readonly resource: string;
  readonly namespaced: boolean;
}

/** The REST path of one object of `res`, optionally of a subresource such as `status`. */
export function objectPath(
  res: ApiResource,
  namespace: string | undefined,
  name: string,
  subresource?: string,
): string {
  const base = res.group === '' ? `/api/${res.version}` : `/apis/${res.group}/${res.version}`;
  const ns =
    res.namespaced && namespace !== undefined && namespace !== ''
      ? `/namespaces/${encodeURIComponent(namespace)}`
      : '';
  const sub = subresource === undefined ? '' : `/${subresource}`;
  return `${base}${ns}/${res.resource}/${encodeURIComponent(name)}${sub}`;
}

/** `group/version`, or `version` for the core group: the apiVersion of the resource's objects. */
export function apiVersionOf(res: ApiResource): string {
  return res.group === '' ? res.version : `${res.group}/${res.version}`;
}

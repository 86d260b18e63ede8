/**
 * Reads API discovery (`/api`, `/apis`, `/api/v1`, `/apis/<group>/<version>`) into a flat list
 * of resources. A group-version whose discovery fails (an unavailable aggregated API) is left
 * out and reported, so one broken APIService cannot hide every other kind.
 */
import { setMaxListeners } from 'node:events';
import { linkedController } from '../../core/abort.js';
import type { KubeRequester } from '../client/kube-client.js';

/** One resource from discovery. */
export interface DiscoveredResource {
  /** `v1` or `group/version`. */
  readonly apiVersion: string;
  readonly kind: string;
  /** Plural resource name. */
  readonly resource: string;
  readonly namespaced: boolean;
  readonly verbs: readonly string[];
  /** True when `<resource>/status` is served. */
  readonly hasStatus: boolean;
  /** True when the version is the group's preferred one. */
  readonly preferred: boolean;
}

interface ApiResource {
  name: string;
  kind: string;
  namespaced?: boolean;
  verbs?: string[];
}
interface ApiResourceList {
  groupVersion?: string;
  resources?: ApiResource[];
}
interface ApiGroupList {
  groups?: {
    name: string;
    versions?: { groupVersion: string }[];
    preferredVersion?: { groupVersion: string };
  }[];
}

/** Result of discover: resources and the group-versions that could not be read. */
export interface DiscoveryResult {
  readonly resources: DiscoveredResource[];
  readonly failedGroupVersions: { readonly groupVersion: string; readonly error: unknown }[];
}

/** Reads the whole discovery tree (1 + 1 + one request per group-version, in parallel). */
export async function discover(
  client: KubeRequester,
  signal?: AbortSignal,
): Promise<DiscoveryResult> {
  // One request per group-version runs in parallel, each listening on the signal: give them a
  // private child signal with room for that many listeners.
  const link = linkedController(signal);
  setMaxListeners(0, link.controller.signal);
  try {
    return await discoverAll(client, link.controller.signal);
  } finally {
    link.dispose();
  }
}

async function discoverAll(client: KubeRequester, signal: AbortSignal): Promise<DiscoveryResult> {
  const s = { signal };
  const [core, groups] = await Promise.all([
    client.request<{ versions?: string[] }>({ method: 'GET', path: '/api', ...s }),
    client.request<ApiGroupList>({ method: 'GET', path: '/apis', ...s }),
  ]);
  const gvs: { groupVersion: string; path: string; preferred: boolean }[] = [];
  for (const v of core.versions ?? [])
    gvs.push({ groupVersion: v, path: `/api/${v}`, preferred: v === 'v1' });
  for (const g of groups.groups ?? []) {
    for (const v of g.versions ?? [])
      gvs.push({
        groupVersion: v.groupVersion,
        path: `/apis/${v.groupVersion}`,
        preferred: g.preferredVersion?.groupVersion === v.groupVersion,
      });
  }
  const resources: DiscoveredResource[] = [];
  const failedGroupVersions: DiscoveryResult['failedGroupVersions'] = [];
  const lists = await Promise.all(
    gvs.map((gv) =>
      client
        .request<ApiResourceList>({ method: 'GET', path: gv.path, ...s })
        .then((list) => ({ gv, list }))
        .catch((error: unknown) => {
          failedGroupVersions.push({ groupVersion: gv.groupVersion, error });
          return undefined;
        }),
    ),
  );
  if (signal.aborted) throw signal.reason;
  for (const entry of lists) {
    if (!entry) continue;
    const all = entry.list.resources ?? [];
    const names = new Set(all.map((r) => r.name));
    for (const r of all) {
      if (r.name.includes('/')) continue;
      resources.push({
        apiVersion: entry.gv.groupVersion,
        kind: r.kind,
        resource: r.name,
        namespaced: r.namespaced === true,
        verbs: r.verbs ?? [],
        hasStatus: names.has(`${r.name}/status`),
        preferred: entry.gv.preferred,
      });
    }
  }
  return { resources, failedGroupVersions };
}

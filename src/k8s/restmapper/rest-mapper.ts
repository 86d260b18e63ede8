/**
 * apiVersion + kind -> REST resource, from discovery. Mappings are cached; the cache is
 * refreshed when a caller asks (`refresh()`, e.g. on a CRD watch event) and automatically on
 * a miss, at most once per `minRefreshIntervalMs`, so a typo in a watched kind cannot flood
 * the API server with discovery requests. An unknown kind is an UnknownKindError, never a
 * guessed plural.
 */
import { throwIfAborted } from '../../core/abort.js';
import type { KubeRequester } from '../client/kube-client.js';
import { splitApiVersion, type ApiResource } from '../client/api-resource.js';
import { discover, type DiscoveredResource } from './discovery.js';
import { UnknownKindError } from './rest-mapper-errors.js';

/** The mapping of one kind: the resource descriptor plus what the resource supports. */
export interface RestMapping extends ApiResource {
  readonly kind: string;
  readonly hasStatus: boolean;
  readonly verbs: readonly string[];
}

/** Options of a RestMapper. */
export interface RestMapperOptions {
  /** Least time between automatic refreshes on a miss (default 10,000 ms). */
  readonly minRefreshIntervalMs?: number;
  /** Told about group-versions whose discovery failed. */
  readonly onError?: (err: unknown) => void;
  /** Milliseconds clock (tests). */
  readonly now?: () => number;
}

/** Resolves kinds to resources through discovery. Construction does no I/O. */
export class RestMapper {
  private byKind = new Map<string, RestMapping>();
  private lastRefresh = Number.NEGATIVE_INFINITY;
  private refreshing: Promise<void> | undefined;
  /** Completed discovery reads. */
  refreshCount = 0;

  constructor(
    private readonly client: KubeRequester,
    private readonly options: RestMapperOptions = {},
  ) {}

  /** Re-reads discovery now (concurrent callers share one read). */
  refresh(signal?: AbortSignal): Promise<void> {
    this.refreshing ??= this.doRefresh(signal).finally(() => {
      this.refreshing = undefined;
    });
    return this.refreshing;
  }

  /** The mapping of `apiVersion` + `kind`; refreshes once on a miss (rate-limited). */
  async mapping(apiVersion: string, kind: string, signal?: AbortSignal): Promise<RestMapping> {
    const hit = this.byKind.get(mapKey(apiVersion, kind));
    if (hit) return hit;
    const now = (this.options.now ?? Date.now)();
    if (now - this.lastRefresh >= (this.options.minRefreshIntervalMs ?? 10_000) || this.refreshing)
      await this.refresh(signal);
    const found = this.byKind.get(mapKey(apiVersion, kind));
    if (!found) throw new UnknownKindError(apiVersion, kind);
    return found;
  }

  /** The mapping from the cache only, or undefined. */
  cached(apiVersion: string, kind: string): RestMapping | undefined {
    return this.byKind.get(mapKey(apiVersion, kind));
  }

  /** Every cached mapping of a group (all its versions). */
  kindsOfGroup(group: string): RestMapping[] {
    return [...this.byKind.values()].filter((m) => m.group === group);
  }

  private async doRefresh(signal?: AbortSignal): Promise<void> {
    const result = await discover(this.client, signal);
    throwIfAborted(signal, 'discovery');
    for (const f of result.failedGroupVersions) this.options.onError?.(f.error);
    const next = new Map<string, RestMapping>();
    for (const r of result.resources) next.set(mapKey(r.apiVersion, r.kind), toMapping(r));
    this.byKind = next;
    this.lastRefresh = (this.options.now ?? Date.now)();
    this.refreshCount++;
  }
}

function mapKey(apiVersion: string, kind: string): string {
  return `${apiVersion}\u0000${kind}`;
}

function toMapping(r: DiscoveredResource): RestMapping {
  return {
    ...splitApiVersion(r.apiVersion),
    kind: r.kind,
    resource: r.resource,
    namespaced: r.namespaced,
    hasStatus: r.hasStatus,
    verbs: r.verbs,
  };
}

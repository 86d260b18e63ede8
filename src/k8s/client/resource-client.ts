/**
 * Typed-enough CRUD over one resource (e.g. ConfigMaps): the calls tests, leader election and
 * on-demand stores make again and again. Paging and watching live in src/k8s/informer.
 */
import type { KubeClient } from './kube-client.js';
import type { KubeList, KubeObject } from './kube-object.js';
import { resourcePath, type ApiResource } from './api-resource.js';

/** Options of a list call. */
export interface ListCallOptions {
  readonly labelSelector?: string;
  readonly fieldSelector?: string;
  readonly limit?: number;
  readonly continueToken?: string;
}

/** GET / LIST / CREATE / REPLACE / DELETE of one resource through a KubeClient. */
export class ResourceClient<T extends KubeObject = KubeObject> {
  constructor(
    private readonly client: KubeClient,
    /** The resource, e.g. `{ group: '', version: 'v1', resource: 'configmaps', namespaced: true }`. */
    readonly ref: ApiResource,
  ) {}

  /** Reads one object; throws NotFoundError when absent. */
  get(namespace: string | undefined, name: string, signal?: AbortSignal): Promise<T> {
    return this.client.request<T>({
      method: 'GET',
      path: resourcePath(this.ref, namespace, name),
      ...(signal !== undefined && { signal }),
    });
  }

  /** One page of a list (namespace undefined: all namespaces). */
  list(
    namespace: string | undefined,
    options: ListCallOptions = {},
    signal?: AbortSignal,
  ): Promise<KubeList<T>> {
    return this.client.request<KubeList<T>>({
      method: 'GET',
      path: resourcePath(this.ref, namespace),
      query: {
        labelSelector: options.labelSelector,
        fieldSelector: options.fieldSelector,
        limit: options.limit === undefined ? undefined : String(options.limit),
        continue: options.continueToken,
      },
      ...(signal !== undefined && { signal }),
    });
  }

  /** Creates `object` in its `metadata.namespace`; throws ConflictError (already-exists). */
  create(object: T, signal?: AbortSignal): Promise<T> {
    return this.client.request<T>({
      method: 'POST',
      path: resourcePath(this.ref, object.metadata?.namespace),
      body: object,
      ...(signal !== undefined && { signal }),
    });
  }

  /** Replaces `object` (PUT); with `metadata.resourceVersion` set this is an optimistic lock. */
  replace(object: T, signal?: AbortSignal): Promise<T> {
    return this.client.request<T>({
      method: 'PUT',
      path: resourcePath(this.ref, object.metadata?.namespace, object.metadata?.name ?? ''),
      body: object,
      ...(signal !== undefined && { signal }),
    });
  }

  /** Deletes one object; throws NotFoundError when absent. */
  async delete(namespace: string | undefined, name: string, signal?: AbortSignal): Promise<void> {
    await this.client.request({
      method: 'DELETE',
      path: resourcePath(this.ref, namespace, name),
      ...(signal !== undefined && { signal }),
    });
  }
}

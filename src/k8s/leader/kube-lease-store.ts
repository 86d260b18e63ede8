/** A LeaseStore backed by a coordination.k8s.io/v1 Lease in the API server. */
import { LEASES, resourcePath } from '../client/api-resource.js';
import type { KubeClient } from '../client/kube-client.js';
import { NotFoundError } from '../client/kube-errors.js';
import type { Lease, LeaseSpec, LeaseStore } from './lease.js';

/** One named Lease in one namespace, read and written through a KubeClient. */
export class KubeLeaseStore implements LeaseStore {
  readonly description: string;

  constructor(
    private readonly client: KubeClient,
    private readonly namespace: string,
    private readonly name: string,
  ) {
    this.description = `${namespace}/${name}`;
  }

  private get collectionPath(): string {
    return resourcePath(LEASES, this.namespace);
  }

  private get objectPath(): string {
    return resourcePath(LEASES, this.namespace, this.name);
  }

  /** Reads the lease; undefined on 404. */
  async get(signal: AbortSignal): Promise<Lease | undefined> {
    try {
      return await this.client.request<Lease>({ method: 'GET', path: this.objectPath, signal });
    } catch (err) {
      if (err instanceof NotFoundError) return undefined;
      throw err;
    }
  }

  /** Creates the lease (POST); a concurrent creator gets ConflictError (already-exists). */
  create(spec: LeaseSpec, signal: AbortSignal): Promise<Lease> {
    return this.client.request<Lease>({
      method: 'POST',
      path: this.collectionPath,
      body: this.object(spec),
      signal,
    });
  }

  /** Replaces the lease (PUT) with a resourceVersion precondition. */
  update(spec: LeaseSpec, resourceVersion: string, signal: AbortSignal): Promise<Lease> {
    return this.client.request<Lease>({
      method: 'PUT',
      path: this.objectPath,
      body: this.object(spec, resourceVersion),
      signal,
    });
  }

  private object(spec: LeaseSpec, resourceVersion?: string): Lease {
    return {
      apiVersion: 'coordination.k8s.io/v1',
      kind: 'Lease',
      metadata: {
        name: this.name,
        namespace: this.namespace,
        ...(resourceVersion !== undefined && { resourceVersion }),
      },
      spec,
    };
  }
}

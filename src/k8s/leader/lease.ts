/**
 * The coordination.k8s.io/v1 Lease as the elector sees it, and the small storage interface the
 * elector needs. Keeping storage behind an interface lets unit tests drive the state machine
 * with an in-memory store while integration tests use the real API server.
 */

/** `spec` of a coordination.k8s.io/v1 Lease (the fields leader election uses). */
export interface LeaseSpec {
  /** Identity of the current holder; empty or missing means the lease is free. */
  readonly holderIdentity?: string;
  /** How long a holder may go without renewing before others may take over. */
  readonly leaseDurationSeconds?: number;
  /** MicroTime (RFC3339 with microseconds) of the current holder's acquisition. */
  readonly acquireTime?: string;
  /** MicroTime of the holder's last renewal. */
  readonly renewTime?: string;
  /** Number of changes of holder; the elector uses it as the fencing epoch. */
  readonly leaseTransitions?: number;
}

/** A Lease object. `metadata.resourceVersion` is opaque and used only as a precondition. */
export interface Lease {
  readonly apiVersion?: 'coordination.k8s.io/v1';
  readonly kind?: 'Lease';
  readonly metadata: {
    readonly name: string;
    readonly namespace?: string;
    readonly resourceVersion?: string;
  };
  readonly spec: LeaseSpec;
}

/**
 * Where one named Lease lives. Implementations throw the typed errors of
 * src/k8s/client/kube-errors.ts: ConflictError when a create finds the lease already there or
 * an update carries a stale resourceVersion.
 */
export interface LeaseStore {
  /** A human-readable name such as `haptic/haptic-leader`, for messages. */
  readonly description: string;
  /** The lease, or undefined when it does not exist. */
  get(signal: AbortSignal): Promise<Lease | undefined>;
  /** Creates the lease; throws ConflictError when it already exists. */
  create(spec: LeaseSpec, signal: AbortSignal): Promise<Lease>;
  /** Replaces the spec, preconditioned on `resourceVersion`; throws ConflictError when stale. */
  update(spec: LeaseSpec, resourceVersion: string, signal: AbortSignal): Promise<Lease>;
}

/** Formats epoch milliseconds as a Kubernetes MicroTime (`2026-01-02T03:04:05.123000Z`). */
export function microTime(ms: number): string {
  return new Date(ms).toISOString().replace(/Z$/, '000Z');
}

/**
 * The domain event catalogue (port of HAPTIC pkg/controller/events), keeping HAPTIC's type
 * strings so the port can be traced (`../shared/reference/haptic-notes.md` §1.9).
 *
 * Why here and not in src/bus: the bus is a generic, domain-agnostic library (it is benchmarked
 * and tested with its own toy events, and the lint boundaries forbid src/bus and src/component
 * from importing src/controller). Only the controller layer knows domain events, exactly as in
 * HAPTIC where pkg/events is generic and pkg/controller/events holds the catalogue.
 *
 * Every event is a deeply frozen plain object: the {@link EventEnvelope} fields (id, timestamp,
 * correlationId, causationId) plus `type` plus its payload. Build events with `createEvent`
 * (create-event.ts), which freezes them and derives correlation from the causing event.
 * Per-cycle data (rendered files, status patches) rides on the events, never in side caches.
 *
 * Secrets: only `credentials.updated` and `cert.parsed` carry secret material, in fields the
 * commentator's sanitizer redacts (`credentials`, `keyPem`, `certPem`).
 */
import type { DeepReadonly } from '../../bus/deep-freeze.js';
import type { EventEnvelope } from '../../bus/envelope.js';
import type { RenderedFiles } from '../../templating/render-output.js';
import type { StatusPatch } from '../../templating/status-patch.js';

/** A Kubernetes object reference as events carry it. */
export interface ObjectRef {
  readonly namespace: string;
  readonly name: string;
  readonly resourceVersion?: string;
}

/** An admitted HAProxy pod: where its agent listens. */
export interface PodEndpoint {
  readonly podName: string;
  readonly podNamespace: string;
  /** Agent base URL, e.g. `https://10.0.0.7:9102`. */
  readonly address: string;
}

/** Counts of one store change. */
export interface ChangeStats {
  readonly created: number;
  readonly modified: number;
  readonly deleted: number;
}

/** Pipeline phase a failure belongs to. */
export type PipelinePhase = 'render' | 'validate' | 'deploy' | 'apply' | 'publish';

/** HAProxy config validation phase (HAPTIC: syntax / schema / semantic = `haproxy -c`). */
export type ValidationPhase = 'syntax' | 'schema' | 'semantic';

/** Deployment lane (N: structural = files + reload; runtime = runtime API only). */
export type DeploymentLane = 'structural' | 'runtime';

/** Payload of each domain event type, keyed by HAPTIC's type string. */
export interface DomainEventPayloads {
  // --- configuration (HAProxyTemplateConfig, credentials Secret, webhook certificate) ---
  /** The HAProxyTemplateConfig watcher saw a change. */
  'config.resource.changed': { readonly resource: ObjectRef };
  /** The config loader parsed the spec. `config` is the loader's parsed model. */
  'config.parsed': { readonly config: unknown; readonly configVersion: string };
  /** Scatter-gather: asks each config validator for a verdict. */
  'config.validation.request': {
    readonly requestId: string;
    readonly config: unknown;
    readonly configVersion: string;
  };
  /** One validator's verdict (`responder` = basic / template / jsonpath). */
  'config.validation.response': {
    readonly requestId: string;
    readonly responder: string;
    readonly isValid: boolean;
    readonly errors: readonly string[];
  };
  /** All validators accepted the config; after startup this triggers reinitialization. */
  'config.validated': { readonly config: unknown; readonly configVersion: string };
  /** At least one validator rejected the config (or did not answer). */
  'config.invalid': {
    readonly configVersion: string;
    readonly errorsByValidator: Readonly<Record<string, readonly string[]>>;
  };
  /** The credentials Secret watcher saw a change. */
  'secret.resource.changed': { readonly resource: ObjectRef };
  /** New agent credentials loaded. SECRET: `credentials` is redacted in logs. */
  'credentials.updated': { readonly secretVersion: string; readonly credentials: unknown };
  /** The credentials Secret could not be used. */
  'credentials.invalid': { readonly secretVersion: string; readonly error: string };
  /** The webhook certificate Secret watcher saw a change. */
  'cert.resource.changed': { readonly resource: ObjectRef };
  /** Webhook TLS material parsed. SECRET: `keyPem` (and `certPem`) are redacted in logs. */
  'cert.parsed': {
    readonly version: string;
    readonly certPem: string;
    readonly keyPem: string;
    readonly notAfter: string;
  };

  // --- resources ---
  /** A watched store changed. */
  'resource.index.updated': {
    readonly resourceType: string;
    readonly changeStats: ChangeStats;
    readonly isInitialSync: boolean;
  };
  /** One watcher finished its initial sync. */
  'resource.sync.complete': { readonly resourceType: string; readonly initialCount: number };
  /** Every watcher has synced. */
  'index.synchronized': { readonly resourceCounts: Readonly<Record<string, number>> };

  // --- reconciliation ---
  'reconciliation.triggered': { readonly reason: string; readonly isCoalescible: boolean };
  'reconciliation.started': { readonly reason: string };
  'reconciliation.completed': { readonly durationMs: number };
  /** Carries the last successful render's status patches for the failure variants. */
  'reconciliation.failed': {
    readonly phase: PipelinePhase;
    readonly error: string;
    readonly statusPatches: readonly StatusPatch[];
  };
  'template.rendered': {
    readonly files: RenderedFiles;
    readonly statusPatches: readonly StatusPatch[];
    readonly checksum: string;
    readonly durationMs: number;
    readonly isCoalescible: boolean;
  };
  'template.render.failed': { readonly templateName?: string; readonly error: string };
  'validation.started': { readonly checksum: string };
  'validation.completed': {
    readonly checksum: string;
    readonly durationMs: number;
    readonly warnings: readonly string[];
    readonly isCoalescible: boolean;
  };
  'validation.failed': {
    readonly checksum: string;
    readonly phase: ValidationPhase;
    readonly errors: readonly string[];
    readonly durationMs: number;
  };
  'validation_tests.started': { readonly testCount: number };
  'validation_tests.completed': {
    readonly passed: number;
    readonly failed: number;
    readonly durationMs: number;
  };
  'validation_tests.failed': { readonly failedTests: readonly string[]; readonly error?: string };

  // --- deployment ---
  'deployment.scheduled': {
    readonly files: RenderedFiles;
    readonly checksum: string;
    readonly endpoints: readonly PodEndpoint[];
    readonly reason: string;
    readonly lane: DeploymentLane;
    readonly statusPatches: readonly StatusPatch[];
    readonly isCoalescible: boolean;
  };
  'deployment.started': { readonly checksum: string; readonly endpoints: readonly PodEndpoint[] };
  'instance.deployed': {
    readonly endpoint: PodEndpoint;
    readonly checksum: string;
    readonly durationMs: number;
    readonly isReloadRequired: boolean;
  };
  'instance.deployment.failed': {
    readonly endpoint: PodEndpoint;
    readonly checksum: string;
    readonly error: string;
    readonly isRetryable: boolean;
  };
  /** Every pod verified (or failed); `statusPatches` select the deployed / deployFailed variant. */
  'deployment.completed': {
    readonly checksum: string;
    readonly total: number;
    readonly succeeded: number;
    readonly failed: number;
    readonly durationMs: number;
    readonly statusPatches: readonly StatusPatch[];
  };
  /** N: config and pod set unchanged; still means "deployed" for status. */
  'deployment.skipped': {
    readonly checksum: string;
    readonly reason: string;
    readonly statusPatches: readonly StatusPatch[];
  };
  'deployment.cancel.request': { readonly reason: string };
  'drift.prevention.triggered': { readonly idleMs: number };
  'haproxy.pods.discovered': {
    readonly endpoints: readonly PodEndpoint[];
    readonly isCoalescible: boolean;
  };
  'haproxy.pod.terminated': { readonly podName: string; readonly podNamespace: string };
  /** N: a pod refused admission (e.g. version mismatch). */
  'haproxy.pod.rejected': {
    readonly podName: string;
    readonly podNamespace: string;
    readonly reason: string;
  };
  /** N: outcome of the runtime lane for one pod. */
  'runtime.fastpath.result': {
    readonly endpoint: PodEndpoint;
    readonly isApplied: boolean;
    readonly fallbackReason?: string;
  };
  /** N: read-back after a runtime apply differs from the intent. */
  'deploy.runtime.divergence': { readonly endpoint: PodEndpoint; readonly detail: string };
  'runtime.map.divergence': { readonly endpoint: PodEndpoint; readonly mapName: string };
  /** N: the async `haproxy -c` gate's verdict on a render (HAPTIC's string was not captured). */
  'render.gate.completed': {
    readonly checksum: string;
    readonly isAccepted: boolean;
    readonly error?: string;
  };

  // --- publishing and status ---
  'config.published': {
    readonly haproxyCfg: ObjectRef;
    readonly checksum: string;
    readonly fileCount: number;
  };
  'config.publish.failed': { readonly checksum: string; readonly error: string };
  'config.applied.to.pod': {
    readonly podName: string;
    readonly podNamespace: string;
    readonly checksum: string;
    readonly isDriftCheck: boolean;
  };
  /** N: request to publish the deployed config. */
  'config.deployed.publish.request': { readonly checksum: string };
  /** N: template-declared Kubernetes resources applied; carries the `rendered` status patches. */
  'resources.applied': {
    readonly checksum: string;
    readonly appliedCount: number;
    readonly statusPatches: readonly StatusPatch[];
  };
  'status.update.completed': {
    readonly phase: string;
    readonly appliedCount: number;
    readonly skippedCount: number;
  };
  'status.update.failed': {
    readonly phase: string;
    readonly target: string;
    readonly error: string;
    readonly isRetriable: boolean;
  };

  // --- webhook ---
  'webhook.validation.request': {
    readonly uid: string;
    readonly kind: string;
    readonly namespace: string;
    readonly name: string;
    readonly operation: string;
  };
  'webhook.validation.allowed': { readonly uid: string; readonly kind: string };
  'webhook.validation.denied': {
    readonly uid: string;
    readonly kind: string;
    readonly reason: string;
  };
  'webhook.validation.error': {
    readonly uid: string;
    readonly kind: string;
    readonly error: string;
  };
  /** Scatter-gather: dry-run validation of an admission request. */
  'webhook.validation.request.sg': {
    readonly requestId: string;
    readonly kind: string;
    readonly namespace: string;
    readonly name: string;
    readonly operation: string;
    readonly object: unknown;
  };
  'webhook.validation.response.sg': {
    readonly requestId: string;
    readonly responder: string;
    readonly isAllowed: boolean;
    readonly reason?: string;
  };

  // --- leadership ---
  'leader.election.started': {
    readonly identity: string;
    readonly leaseName: string;
    readonly leaseNamespace: string;
  };
  /** This replica leads; `epoch` is the fencing token of the term. */
  'leader.became': { readonly identity: string; readonly epoch: number };
  'leader.lost': { readonly identity: string; readonly reason: string };
  'leader.observed': { readonly leader: string; readonly isSelf: boolean };

  // --- HTTP store and proposals ---
  'http.resource.updated': {
    readonly url: string;
    readonly checksum: string;
    readonly isCoalescible: boolean;
  };
  'http.resource.accepted': { readonly url: string; readonly checksum: string };
  'http.resource.rejected': { readonly url: string; readonly error: string };
  'proposal.validation.requested': { readonly requestId: string; readonly description: string };
  'proposal.validation.completed': {
    readonly requestId: string;
    readonly isValid: boolean;
    readonly errors: readonly string[];
  };
}

/** Every domain event type string. */
export type DomainEventType = keyof DomainEventPayloads;

/**
 * The domain event of type `K`: envelope + `type` + payload, read-only at every depth. Use it
 * with one type; for several, `EventOfType<DomainEvent, 'a' | 'b'>` gives the proper union.
 */
export type DomainEventOf<K extends DomainEventType> = DeepReadonly<
  EventEnvelope & { readonly type: K } & DomainEventPayloads[K]
>;

/** The discriminated union of all domain events. */
export type DomainEvent = { [K in DomainEventType]: DomainEventOf<K> }[DomainEventType];

const TYPES: { readonly [K in DomainEventType]: true } = {
  'config.resource.changed': true,
  'config.parsed': true,
  'config.validation.request': true,
  'config.validation.response': true,
  'config.validated': true,
  'config.invalid': true,
  'secret.resource.changed': true,
  'credentials.updated': true,
  'credentials.invalid': true,
  'cert.resource.changed': true,
  'cert.parsed': true,
  'resource.index.updated': true,
  'resource.sync.complete': true,
  'index.synchronized': true,
  'reconciliation.triggered': true,
  'reconciliation.started': true,
  'reconciliation.completed': true,
  'reconciliation.failed': true,
  'template.rendered': true,
  'template.render.failed': true,
  'validation.started': true,
  'validation.completed': true,
  'validation.failed': true,
  'validation_tests.started': true,
  'validation_tests.completed': true,
  'validation_tests.failed': true,
  'deployment.scheduled': true,
  'deployment.started': true,
  'instance.deployed': true,
  'instance.deployment.failed': true,
  'deployment.completed': true,
  'deployment.skipped': true,
  'deployment.cancel.request': true,
  'drift.prevention.triggered': true,
  'haproxy.pods.discovered': true,
  'haproxy.pod.terminated': true,
  'haproxy.pod.rejected': true,
  'runtime.fastpath.result': true,
  'deploy.runtime.divergence': true,
  'runtime.map.divergence': true,
  'render.gate.completed': true,
  'config.published': true,
  'config.publish.failed': true,
  'config.applied.to.pod': true,
  'config.deployed.publish.request': true,
  'resources.applied': true,
  'status.update.completed': true,
  'status.update.failed': true,
  'webhook.validation.request': true,
  'webhook.validation.allowed': true,
  'webhook.validation.denied': true,
  'webhook.validation.error': true,
  'webhook.validation.request.sg': true,
  'webhook.validation.response.sg': true,
  'leader.election.started': true,
  'leader.became': true,
  'leader.lost': true,
  'leader.observed': true,
  'http.resource.updated': true,
  'http.resource.accepted': true,
  'http.resource.rejected': true,
  'proposal.validation.requested': true,
  'proposal.validation.completed': true,
};

/** Every domain event type, in catalogue order (the record above makes the list exhaustive). */
export const DOMAIN_EVENT_TYPES: readonly DomainEventType[] = Object.keys(
  TYPES,
) as DomainEventType[];

/** True when `type` names a domain event. */
export function isDomainEventType(type: string): type is DomainEventType {
  return Object.hasOwn(TYPES, type);
}

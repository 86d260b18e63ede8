/**
 * Status patches templates register with `statusPatch(resource, variants)`: one status body per
 * pipeline outcome, chosen later by whoever applies status. Plus the `condition` and
 * `transitionTime` helpers that build Kubernetes conditions.
 */
import { toText } from './to-text.js';
import { InvalidArgumentError } from '../core/errors.js';
import { STATUS_PHASES, type StatusPhase } from './template-config.js';

/** A registered status patch for one object. */
export interface StatusPatch {
  readonly apiVersion: string;
  readonly kind: string;
  readonly namespace: string;
  readonly name: string;
  /** Status bodies (the content under `.status`) by outcome phase. */
  readonly variants: Readonly<Partial<Record<StatusPhase, Readonly<Record<string, unknown>>>>>;
}

/** A Kubernetes condition as the helpers build it. */
export interface Condition {
  readonly type: string;
  readonly status: string;
  readonly reason: string;
  readonly message: string;
  readonly observedGeneration?: number;
  readonly lastTransitionTime: string;
}

type Obj = Record<string, unknown>;
const isObj = (v: unknown): v is Obj => typeof v === 'object' && v !== null && !Array.isArray(v);

/** Key identifying the object a patch targets. */
export function statusPatchKey(
  p: Pick<StatusPatch, 'apiVersion' | 'kind' | 'namespace' | 'name'>,
): string {
  return `${p.apiVersion}/${p.kind}/${p.namespace}/${p.name}`;
}

/** Checks the arguments of `statusPatch(resource, variants)` and builds the patch. */
export function buildStatusPatch(resource: unknown, variants: unknown): StatusPatch {
  if (!isObj(resource))
    throw new InvalidArgumentError('statusPatch: resource must be a Kubernetes object');
  const meta = isObj(resource['metadata']) ? resource['metadata'] : {};
  const apiVersion = resource['apiVersion'];
  const kind = resource['kind'];
  const name = meta['name'];
  if (typeof apiVersion !== 'string' || typeof kind !== 'string' || typeof name !== 'string') {
    throw new InvalidArgumentError(
      'statusPatch: resource needs apiVersion, kind and metadata.name',
    );
  }
  const namespace = typeof meta['namespace'] === 'string' ? meta['namespace'] : '';
  if (!isObj(variants))
    throw new InvalidArgumentError('statusPatch: variants must be a mapping of phase to status');
  const out: Partial<Record<StatusPhase, Obj>> = {};
  for (const [phase, body] of Object.entries(variants)) {
    if (!(STATUS_PHASES as readonly string[]).includes(phase)) {
      throw new InvalidArgumentError(
        `statusPatch: unknown variant "${phase}" (known: ${STATUS_PHASES.join(', ')})`,
      );
    }
    if (!isObj(body))
      throw new InvalidArgumentError(
        `statusPatch: variant "${phase}" must be a mapping (the content under .status)`,
      );
    if ('status' in body && Object.keys(body).length === 1) {
      throw new InvalidArgumentError(
        `statusPatch: variant "${phase}" wraps its content in "status"; give the content under .status directly`,
      );
    }
    out[phase as StatusPhase] = JSON.parse(JSON.stringify(body)) as Obj;
  }
  return { apiVersion, kind, namespace, name, variants: out };
}

/**
 * `transitionTime(existingConditions, type, status)`: the existing condition's
 * lastTransitionTime when its status is unchanged, else `now`.
 */
export function transitionTime(
  existing: unknown,
  type: unknown,
  status: unknown,
  now: string,
): string {
  if (Array.isArray(existing)) {
    for (const c of existing as unknown[]) {
      if (isObj(c) && c['type'] === type) {
        const t = c['lastTransitionTime'];
        return c['status'] === status && typeof t === 'string' && t !== '' ? t : now;
      }
    }
  }
  return now;
}

/** `condition(type, status, reason, message, observedGeneration, lastTransitionTime?)`. */
export function condition(
  type: unknown,
  status: unknown,
  reason: unknown,
  message: unknown,
  observedGeneration: unknown,
  lastTransitionTime: unknown,
  now: string,
): Condition {
  if (typeof type !== 'string' || type === '')
    throw new InvalidArgumentError('condition: type must be a non-empty string');
  const s = typeof status === 'boolean' ? (status ? 'True' : 'False') : toText(status);
  if (!['True', 'False', 'Unknown'].includes(s)) {
    throw new InvalidArgumentError(
      `condition: status must be True, False or Unknown, got ${JSON.stringify(status)}`,
    );
  }
  const gen =
    typeof observedGeneration === 'number' ? observedGeneration : Number(observedGeneration);
  return {
    type,
    status: s,
    reason: typeof reason === 'string' && reason !== '' ? reason : type,
    message: typeof message === 'string' ? message : '',
    ...(Number.isFinite(gen) &&
      observedGeneration !== undefined &&
      observedGeneration !== null && { observedGeneration: gen }),
    lastTransitionTime:
      typeof lastTransitionTime === 'string' && lastTransitionTime !== ''
        ? lastTransitionTime
        : now,
  };
}

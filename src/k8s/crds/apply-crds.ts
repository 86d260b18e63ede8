/**
 * Installs CRDs with Server-Side Apply under one field manager and waits until the API
 * server serves them: condition Established, and then a list that succeeds, because right
 * after Established the watch cache may still answer 429 "storage is (re)initializing".
 */
import { sleep } from '../../core/abort.js';
import { HapticError } from '../../core/errors.js';
import {
  CUSTOM_RESOURCE_DEFINITIONS,
  resourcePath,
  type ApiResource,
} from '../client/api-resource.js';
import type { KubeClient } from '../client/kube-client.js';
import { KubeApiError } from '../client/kube-errors.js';
import type { CustomResourceDefinition } from './custom-resource.js';

/** Field manager of `haptic crds apply`: one constant name, never per process. */
export const CRD_FIELD_MANAGER = 'haptic-crd-installer';

/** Thrown when an applied CRD does not become Established in time (e.g. a name clash). */
export class CrdNotEstablishedError extends HapticError {
  readonly code = 'HAPTIC_ERR_CRD_NOT_ESTABLISHED';
}

/** Options of applyCrds. */
export interface ApplyCrdsOptions {
  readonly signal: AbortSignal;
  /** Default CRD_FIELD_MANAGER. */
  readonly fieldManager?: string;
  /** How long to wait for Established per call, ms (default 60,000). */
  readonly timeoutMs?: number;
}

interface CrdCondition {
  readonly type: string;
  readonly status: string;
  readonly reason?: string;
  readonly message?: string;
}

interface LiveCrd {
  readonly metadata: { readonly name: string; readonly generation?: number };
  readonly status?: { readonly conditions?: readonly CrdCondition[] };
}

/**
 * Applies every CRD (force: the installer owns every field it sends) and resolves once all
 * are Established; resolves to their names in order.
 */
export async function applyCrds(
  client: KubeClient,
  crds: readonly CustomResourceDefinition[],
  options: ApplyCrdsOptions,
): Promise<string[]> {
  const { signal } = options;
  const names: string[] = [];
  const deadline = performance.now() + (options.timeoutMs ?? 60_000);
  for (const crd of crds) {
    await client.request<LiveCrd>({
      method: 'PATCH',
      path: resourcePath(CUSTOM_RESOURCE_DEFINITIONS, undefined, crd.metadata.name),
      query: { fieldManager: options.fieldManager ?? CRD_FIELD_MANAGER, force: 'true' },
      contentType: 'application/apply-patch+yaml',
      body: crd,
      signal,
    });
    names.push(crd.metadata.name);
  }
  for (const name of names) {
    for (;;) {
      const live = await client.request<LiveCrd>({
        method: 'GET',
        path: resourcePath(CUSTOM_RESOURCE_DEFINITIONS, undefined, name),
        signal,
      });
      const conditions = live.status?.conditions ?? [];
      if (conditions.some((c) => c.type === 'Established' && c.status === 'True')) break;
      if (performance.now() > deadline) {
        const notAccepted = conditions.find(
          (c) => c.type === 'NamesAccepted' && c.status === 'False',
        );
        throw new CrdNotEstablishedError(
          `CRD ${name} is not Established` +
            (notAccepted
              ? `: names not accepted (${notAccepted.reason ?? ''}: ${notAccepted.message ?? ''})`
              : '; check the API server logs and the CRD status'),
        );
      }
      await sleep(100, signal);
    }
  }
  for (const crd of crds) await waitListable(client, crd, deadline, signal);
  return names;
}

/** Lists the resource until the API server answers (it may 429/503 while its cache starts). */
async function waitListable(
  client: KubeClient,
  crd: CustomResourceDefinition,
  deadline: number,
  signal: AbortSignal,
): Promise<void> {
  const version = crd.spec.versions.find((v) => v.storage)?.name ?? '';
  const served: ApiResource = {
    group: crd.spec.group,
    version,
    resource: crd.spec.names.plural,
    namespaced: true,
  };
  for (;;) {
    try {
      await client.request({
        method: 'GET',
        path: resourcePath(served),
        query: { limit: '1' },
        signal,
      });
      return;
    } catch (err) {
      const retriable =
        err instanceof KubeApiError && (err.statusCode === 429 || err.statusCode === 503);
      if (!retriable) throw err;
      if (performance.now() > deadline)
        throw new CrdNotEstablishedError(
          `CRD ${crd.metadata.name} is Established but its objects cannot be listed yet`,
          { cause: err },
        );
    }
    await sleep(100, signal);
  }
}

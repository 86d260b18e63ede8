/** Server-Side Apply: one PATCH with `application/apply-patch+yaml` and a JSON body. */
import type { KubeRequester } from '../client/kube-client.js';
import { resourcePath, type ApiResource } from '../client/api-resource.js';
import { assertValidFieldManager } from './field-manager-name.js';
import { InvalidApplyObjectError } from './ssa-errors.js';

/** Options of one apply. */
export interface ApplyOptions {
  /** Constant per writer; at most 128 bytes, no pod names (STATUS-OWNERSHIP.md P3). */
  readonly fieldManager: string;
  /** Take over fields other managers own instead of failing with an ownership 409. */
  readonly force: boolean;
  /** `status` to apply to the status subresource. */
  readonly subresource?: 'status';
  /** Server-side dry run: validate and merge, store nothing. */
  readonly dryRun?: boolean;
  /** How the server treats unknown or duplicate fields; `Strict` turns them into a 400. */
  readonly fieldValidation?: 'Strict' | 'Warn' | 'Ignore';
  readonly signal?: AbortSignal;
}

/** The object shape apply needs: type and identity; everything else is the caller's intent. */
export interface ApplyObject {
  readonly apiVersion: string;
  readonly kind: string;
  readonly metadata: {
    readonly name: string;
    readonly namespace?: string;
    readonly [k: string]: unknown;
  };
  readonly [field: string]: unknown;
}

/**
 * Applies `object` to `resource` (or its status subresource) as `fieldManager` and returns the
 * merged object the server answers with. The body is JSON: it is valid YAML, and the
 * `+yaml` media type is the one every API server version accepts for apply.
 * Throws the client's typed errors (ConflictError with `conflictKind`, InvalidError, ...).
 */
export async function apply<T = ApplyObject>(
  client: KubeRequester,
  resource: ApiResource,
  object: ApplyObject,
  options: ApplyOptions,
): Promise<T> {
  assertValidFieldManager(options.fieldManager);
  const { name, namespace } = object.metadata;
  if (!object.apiVersion || !object.kind || !name)
    throw new InvalidApplyObjectError(
      'an object to apply needs apiVersion, kind and metadata.name',
    );
  if (resource.namespaced && !namespace)
    throw new InvalidApplyObjectError(
      `${resource.resource} is namespaced: ${name} needs metadata.namespace`,
    );
  return client.request<T>({
    method: 'PATCH',
    path: resourcePath(resource, namespace, name, options.subresource),
    query: {
      fieldManager: options.fieldManager,
      force: options.force ? 'true' : undefined,
      dryRun: options.dryRun ? 'All' : undefined,
      fieldValidation: options.fieldValidation,
    },
    contentType: 'application/apply-patch+yaml',
    body: object,
    ...(options.signal !== undefined && { signal: options.signal }),
  });
}

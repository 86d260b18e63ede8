/**
 * Typed errors of the Kubernetes API. The API answers failures with a `Status` object; these
 * classes carry its reason, details and causes so callers can tell, for example, an ownership
 * conflict from an optimistic-lock conflict (../shared/design/STATUS-OWNERSHIP.md rule 9).
 */
import { HapticError } from '../../core/errors.js';

/** One entry of `Status.details.causes`. */
export interface StatusCause {
  readonly reason?: string;
  readonly message?: string;
  readonly field?: string;
}

/** The `Status` object the API server sends with an error response. */
export interface KubeStatus {
  readonly kind?: string;
  readonly status?: string;
  readonly message?: string;
  readonly reason?: string;
  readonly code?: number;
  readonly details?: {
    readonly name?: string;
    readonly group?: string;
    readonly kind?: string;
    readonly causes?: readonly StatusCause[];
  };
}

/** What a request was: verb and path, for messages. */
export interface RequestDescription {
  readonly method: string;
  readonly path: string;
}

function describe(req: RequestDescription, status: number, body: KubeStatus | undefined): string {
  const msg = body?.message ?? `HTTP ${status}`;
  return `${req.method} ${req.path}: ${msg}`;
}

/** Thrown for an API error response not covered by a more specific class (e.g. 500). */
export class KubeApiError extends HapticError {
  readonly code: string = 'HAPTIC_ERR_K8S_API';
  /** HTTP status code of the response. */
  readonly statusCode: number;
  /** `Status.reason` (e.g. `Conflict`, `NotFound`), when sent. */
  readonly reason: string | undefined;
  /** `Status.details.causes`, possibly empty. */
  readonly causes: readonly StatusCause[];
  /** The whole `Status` object, when the body was one. */
  readonly status: KubeStatus | undefined;

  constructor(
    req: RequestDescription,
    statusCode: number,
    body: KubeStatus | undefined,
    options?: { cause?: unknown },
  ) {
    super(describe(req, statusCode, body), options);
    this.statusCode = statusCode;
    this.reason = body?.reason;
    this.causes = body?.details?.causes ?? [];
    this.status = body;
  }
}

/** Thrown on 404: the object (or its API) does not exist. */
export class NotFoundError extends KubeApiError {
  override readonly code = 'HAPTIC_ERR_K8S_NOT_FOUND';
  override get isTerminal(): boolean {
    return true;
  }
}

/** The three kinds of 409 the API server sends. */
export type ConflictKind = 'ownership' | 'optimistic-lock' | 'already-exists';

/**
 * Thrown on 409. `conflictKind` is `ownership` when a Server-Side Apply field-manager conflict
 * caused it (`details.causes[].reason == FieldManagerConflict`), `already-exists` on create of an
 * existing object, and `optimistic-lock` otherwise (a stale resourceVersion: re-read and retry).
 */
export class ConflictError extends KubeApiError {
  override readonly code = 'HAPTIC_ERR_K8S_CONFLICT';
  readonly conflictKind: ConflictKind;

  constructor(req: RequestDescription, statusCode: number, body: KubeStatus | undefined) {
    super(req, statusCode, body);
    if (this.causes.some((c) => c.reason === 'FieldManagerConflict'))
      this.conflictKind = 'ownership';
    else if (body?.reason === 'AlreadyExists') this.conflictKind = 'already-exists';
    else this.conflictKind = 'optimistic-lock';
  }

  /** Fields in conflict (ownership conflicts only), e.g. `.status.conditions[type="Ready"].status`. */
  get conflictingFields(): string[] {
    return this.causes.filter((c) => c.reason === 'FieldManagerConflict').map((c) => c.field ?? '');
  }
}

/** Thrown on 410: the resourceVersion asked for is compacted; relist. */
export class GoneError extends KubeApiError {
  override readonly code = 'HAPTIC_ERR_K8S_GONE';
}

/** Thrown on 422 (and on 400 Bad Request): the request body or parameters are invalid. */
export class InvalidError extends KubeApiError {
  override readonly code = 'HAPTIC_ERR_K8S_INVALID';
  override get isTerminal(): boolean {
    return true;
  }
}

/** Thrown on 401: credentials missing, wrong or expired. */
export class UnauthorizedError extends KubeApiError {
  override readonly code = 'HAPTIC_ERR_K8S_UNAUTHORIZED';
  constructor(req: RequestDescription, statusCode: number, body: KubeStatus | undefined) {
    super(req, statusCode, body);
    this.message = `${this.message} (check the token or client certificate in the kubeconfig, or the service account token)`;
  }
}

/** Thrown on 403: authenticated, but RBAC does not allow the verb on the resource. */
export class ForbiddenError extends KubeApiError {
  override readonly code = 'HAPTIC_ERR_K8S_FORBIDDEN';
  constructor(req: RequestDescription, statusCode: number, body: KubeStatus | undefined) {
    super(req, statusCode, body);
    this.message = `${this.message} (grant the permission in the controller's (Cluster)Role)`;
  }
}

/** Thrown on 504 / `Timeout` status, or when a request exceeds its client-side timeout. */
export class KubeTimeoutError extends KubeApiError {
  override readonly code = 'HAPTIC_ERR_K8S_TIMEOUT';
}

/** Thrown on 429: the API server asks the client to slow down. */
export class TooManyRequestsError extends KubeApiError {
  override readonly code = 'HAPTIC_ERR_K8S_TOO_MANY_REQUESTS';
}

/** Thrown when the API server cannot be reached at all (DNS, refused, TLS, reset). */
export class KubeUnreachableError extends HapticError {
  readonly code = 'HAPTIC_ERR_K8S_UNREACHABLE';
  constructor(
    readonly server: string,
    options: { cause: unknown },
  ) {
    const causeCode =
      options.cause instanceof Error && 'code' in options.cause
        ? ` (${String(options.cause.code)})`
        : '';
    super(
      `cannot reach the Kubernetes API server at ${server}${causeCode}; check the server URL in the kubeconfig and that the API server is running`,
      options,
    );
  }
}

/** Maps an HTTP error response to the matching error class. */
export function kubeErrorFromResponse(
  req: RequestDescription,
  statusCode: number,
  body: KubeStatus | undefined,
): KubeApiError {
  switch (statusCode) {
    case 400:
    case 422:
      return new InvalidError(req, statusCode, body);
    case 401:
      return new UnauthorizedError(req, statusCode, body);
    case 403:
      return new ForbiddenError(req, statusCode, body);
    case 404:
      return new NotFoundError(req, statusCode, body);
    case 409:
      return new ConflictError(req, statusCode, body);
    case 410:
      return new GoneError(req, statusCode, body);
    case 429:
      return new TooManyRequestsError(req, statusCode, body);
    case 504:
      return new KubeTimeoutError(req, statusCode, body);
    default:
      return body?.reason === 'Timeout'
        ? new KubeTimeoutError(req, statusCode, body)
        : new KubeApiError(req, statusCode, body);
  }
}

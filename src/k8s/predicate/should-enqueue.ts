/**
 * The enqueue predicate for informer update events (STATUS-OWNERSHIP.md rule 6): status writes
 * must never wake a reconciler, or every writer would wake every other in a loop.
 */

/** The annotation a user or tool sets to ask for a reconcile without a spec change. */
export const DEFAULT_REQUEST_ANNOTATION = 'haptic.io/reconcile-at';

/** The metadata the predicate reads. */
export interface PredicateObject {
  readonly metadata?: {
    readonly generation?: number;
    readonly annotations?: Readonly<Record<string, string>>;
  };
}

/** Options of shouldEnqueue. */
export interface ShouldEnqueueOptions {
  /** Annotation whose change requests a reconcile (default `haptic.io/reconcile-at`). */
  readonly requestAnnotation?: string;
}

/**
 * True when an update should be reconciled: `metadata.generation` changed (the API server
 * bumps it on spec changes only) or the request annotation changed (set, altered or removed).
 * False for status-only, managedFields-only, resourceVersion-only, label or other annotation
 * changes.
 */
export function shouldEnqueue(
  oldObj: PredicateObject,
  newObj: PredicateObject,
  options: ShouldEnqueueOptions = {},
): boolean {
  const annotation = options.requestAnnotation ?? DEFAULT_REQUEST_ANNOTATION;
  if (oldObj.metadata?.generation !== newObj.metadata?.generation) return true;
  return oldObj.metadata?.annotations?.[annotation] !== newObj.metadata?.annotations?.[annotation];
}

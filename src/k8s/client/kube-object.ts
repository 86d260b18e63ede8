/**
 * Minimal shapes of Kubernetes objects, lists and watch events as they travel over the wire.
 * The layer treats objects as unstructured JSON; only the metadata it needs is typed.
 */
import type { KubeStatus } from './kube-errors.js';

/** The metadata fields the client, informers and stores rely on. */
export interface ObjectMeta {
  readonly name?: string;
  readonly namespace?: string;
  readonly uid?: string;
  /** Opaque: compare with `===` only, never parse as a number. */
  readonly resourceVersion?: string;
  readonly generation?: number;
  readonly labels?: Readonly<Record<string, string>>;
  readonly annotations?: Readonly<Record<string, string>>;
  readonly [field: string]: unknown;
}

/** Any Kubernetes object. */
export interface KubeObject {
  readonly apiVersion?: string;
  readonly kind?: string;
  readonly metadata?: ObjectMeta;
  readonly [field: string]: unknown;
}

/** A list response (`<Kind>List`). */
export interface KubeList<T extends KubeObject = KubeObject> {
  readonly apiVersion?: string;
  readonly kind?: string;
  readonly metadata?: {
    readonly resourceVersion?: string;
    readonly continue?: string;
    readonly remainingItemCount?: number;
  };
  readonly items: T[];
}

/** Event types of a watch stream. */
export type WatchEventType = 'ADDED' | 'MODIFIED' | 'DELETED' | 'BOOKMARK' | 'ERROR';

/** One line of a watch stream. ERROR events carry a `Status` instead of an object. */
export type WatchEvent =
  | { readonly type: 'ADDED' | 'MODIFIED' | 'DELETED' | 'BOOKMARK'; readonly object: KubeObject }
  | { readonly type: 'ERROR'; readonly object: KubeStatus };

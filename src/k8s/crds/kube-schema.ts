/**
 * TypeBox builders for the subset of JSON Schema a Kubernetes structural `openAPIV3Schema`
 * accepts. TypeBox's own Record, Union-of-Literal and Unknown emit `patternProperties`,
 * `anyOf`/`const` and untyped nodes, which structural schemas reject or prune; these builders
 * emit the Kubernetes spelling (`additionalProperties`, `enum`,
 * `x-kubernetes-preserve-unknown-fields`) while keeping the precise static type, so one
 * definition yields both the TypeScript type and the CRD schema.
 */
import Type, {
  type Static,
  type TArray,
  type TInteger,
  type TSchema,
  type TString,
  type TUnsafe,
} from 'typebox';

/** Annotations common to every builder. */
export interface KubeSchemaOptions {
  readonly description?: string;
  readonly [keyword: string]: unknown;
}

/** A string-keyed map whose values follow `value` (`additionalProperties`). */
export function kubeMap<V extends TSchema>(
  value: V,
  options: KubeSchemaOptions = {},
): TUnsafe<Record<string, Static<V>>> {
  return Type.Unsafe<Record<string, Static<V>>>({
    ...options,
    type: 'object',
    additionalProperties: value,
  });
}

/** A string restricted to `values`. */
export function kubeEnum<const V extends readonly string[]>(
  values: V,
  options: KubeSchemaOptions = {},
): TUnsafe<V[number]> {
  return Type.Unsafe<V[number]>({ ...options, type: 'string', enum: [...values] });
}

/** Any JSON value, kept as sent (`x-kubernetes-preserve-unknown-fields`). */
export function kubeAny(options: KubeSchemaOptions = {}): TUnsafe {
  return Type.Unsafe({ ...options, 'x-kubernetes-preserve-unknown-fields': true });
}

/** An object with arbitrary fields, kept as sent. */
export function kubeFreeObject(options: KubeSchemaOptions = {}): TUnsafe<Record<string, unknown>> {
  return Type.Unsafe<Record<string, unknown>>({
    ...options,
    type: 'object',
    'x-kubernetes-preserve-unknown-fields': true,
  });
}

/**
 * A list-map: entries are merged per key by Server-Side Apply, so several managers can own
 * different entries. Every key must be a required scalar property of `item`.
 */
export function kubeListMap<T extends TSchema>(
  item: T,
  keys: readonly [string, ...string[]],
  options: KubeSchemaOptions = {},
): TArray<T> {
  return Type.Array(item, {
    ...options,
    'x-kubernetes-list-type': 'map',
    'x-kubernetes-list-map-keys': [...keys],
  });
}

/** A list replaced as a whole by every write (one owner). */
export function kubeAtomicList<T extends TSchema>(
  item: T,
  options: KubeSchemaOptions = {},
): TArray<T> {
  return Type.Array(item, { ...options, 'x-kubernetes-list-type': 'atomic' });
}

/** A list of unique scalars merged per value. */
export function kubeSetList<T extends TSchema>(
  item: T,
  options: KubeSchemaOptions = {},
): TArray<T> {
  return Type.Array(item, { ...options, 'x-kubernetes-list-type': 'set' });
}

/** An RFC3339 timestamp (metav1.Time). */
export function kubeTime(options: KubeSchemaOptions = {}): TString {
  return Type.String({ ...options, format: 'date-time' });
}

/** A Go duration string such as `2s`, `500ms` or `1m30s`. */
export function kubeDuration(options: KubeSchemaOptions = {}): TString {
  return Type.String({
    ...options,
    pattern: '^(0|(([0-9]+(\\.[0-9]*)?|\\.[0-9]+)(ns|us|µs|μs|ms|s|m|h))+)$',
  });
}

/** A 64-bit integer (`format: int64`). */
export function kubeInt64(options: KubeSchemaOptions = {}): TInteger {
  return Type.Integer({ ...options, format: 'int64' });
}

/** A 32-bit integer (`format: int32`). */
export function kubeInt32(options: KubeSchemaOptions = {}): TInteger {
  return Type.Integer({ ...options, format: 'int32' });
}

/**
 * The plain JSON of a schema: TypeBox keeps its bookkeeping in non-enumerable keys, which a
 * JSON round trip drops.
 */
export function plainSchema(schema: TSchema): Record<string, unknown> {
  return JSON.parse(JSON.stringify(schema)) as Record<string, unknown>;
}

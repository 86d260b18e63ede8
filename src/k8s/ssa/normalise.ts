/**
 * Normalisation before comparing desired and live status (STATUS-OWNERSHIP.md rule 4): RFC3339
 * timestamps cut to whole seconds in UTC, null and undefined dropped, empty objects and lists
 * dropped. Without it a millisecond or an empty `{}` would cause a write on every reconcile.
 */
import { rfc3339Seconds } from '../../core/clock.js';
import { canonicalJson, isRecord } from './managed-fields.js';

const RFC3339 = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?(Z|[+-]\d{2}:\d{2})$/;

/** Returns `value` normalised; undefined when nothing is left. */
export function normalise(value: unknown): unknown {
  if (value === null || value === undefined) return undefined;
  if (typeof value === 'string') return RFC3339.test(value) ? toSeconds(value) : value;
  if (Array.isArray(value)) {
    const items = value.map(normalise).filter((v) => v !== undefined);
    return items.length ? items : undefined;
  }
  if (isRecord(value)) {
    const out: Record<string, unknown> = {};
    for (const [k, v] of Object.entries(value)) {
      const n = normalise(v);
      if (n !== undefined) out[k] = n;
    }
    return Object.keys(out).length ? out : undefined;
  }
  return value;
}

/** True when `a` and `b` are equal after normalisation (object key order ignored). */
export function normalisedEqual(a: unknown, b: unknown): boolean {
  return canonicalJson(normalise(a)) === canonicalJson(normalise(b));
}

const SECONDS_UTC = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}Z$/;

function toSeconds(ts: string): string {
  if (SECONDS_UTC.test(ts)) return ts;
  const ms = Date.parse(ts);
  return Number.isNaN(ms) ? ts : rfc3339Seconds(ms);
}

/**
 * A copy of `value` with null, undefined and empty containers removed: what an apply body may
 * contain (P5: never send placeholders such as `conditions: []`).
 */
export function stripEmpty(value: unknown): unknown {
  if (value === null || value === undefined) return undefined;
  if (Array.isArray(value)) {
    const items = value.map(stripEmpty).filter((v) => v !== undefined);
    return items.length ? items : undefined;
  }
  if (isRecord(value)) {
    const out: Record<string, unknown> = {};
    for (const [k, v] of Object.entries(value)) {
      const n = stripEmpty(v);
      if (n !== undefined) out[k] = n;
    }
    return Object.keys(out).length ? out : undefined;
  }
  return value;
}

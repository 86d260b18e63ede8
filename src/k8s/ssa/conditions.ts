/**
 * Condition bookkeeping of the status writer: `lastTransitionTime` carried over from the live
 * object while a condition's `status` is unchanged (P7, like meta.SetStatusCondition), and the
 * observedGeneration guard (P9, the Gateway API rule) that stops a stale writer moving
 * `observedGeneration` backwards.
 *
 * Desired and live are walked in parallel. List entries are paired by identity: conditions by
 * `type`, route parents by `controllerName` + `parentRef`, policy ancestors by
 * `controllerName` + `ancestorRef`, other entries by `name`; entries with none of these are
 * not paired.
 */
import { canonicalJson, isRecord } from './managed-fields.js';

/** Identity of a list entry for pairing desired with live, or undefined. */
export function entryIdentity(item: unknown): string | undefined {
  if (!isRecord(item)) return undefined;
  if (typeof item['type'] === 'string' && typeof item['status'] === 'string')
    return `type:${item['type']}`;
  const controller = item['controllerName'];
  if (typeof controller === 'string' && item['parentRef'] !== undefined)
    return `parent:${controller}:${canonicalJson(item['parentRef'])}`;
  if (typeof controller === 'string' && item['ancestorRef'] !== undefined)
    return `ancestor:${controller}:${canonicalJson(item['ancestorRef'])}`;
  if (typeof item['name'] === 'string') return `name:${item['name']}`;
  return undefined;
}

function isCondition(v: unknown): v is Record<string, unknown> {
  return isRecord(v) && typeof v['type'] === 'string' && typeof v['status'] === 'string';
}

/**
 * A copy of `desired` whose conditions carry `lastTransitionTime`: the live value while the
 * live condition has the same `status`, otherwise `now` (second-precision RFC3339). A time the
 * caller set explicitly is kept.
 */
export function withTransitionTimes(desired: unknown, live: unknown, now: string): unknown {
  if (Array.isArray(desired)) {
    const liveById = indexById(live);
    return desired.map((item) => {
      const id = entryIdentity(item);
      return withTransitionTimes(item, id === undefined ? undefined : liveById.get(id), now);
    });
  }
  if (!isRecord(desired)) return desired;
  const out: Record<string, unknown> = {};
  const liveRec = isRecord(live) ? live : undefined;
  for (const [k, v] of Object.entries(desired)) out[k] = withTransitionTimes(v, liveRec?.[k], now);
  if (
    isCondition(out) &&
    (out['lastTransitionTime'] === undefined || out['lastTransitionTime'] === '')
  ) {
    const liveTime = liveRec?.['lastTransitionTime'];
    out['lastTransitionTime'] =
      liveRec !== undefined && liveRec['status'] === out['status'] && typeof liveTime === 'string'
        ? liveTime
        : now;
  }
  return out;
}

/**
 * The path of the first place where the live object records a newer `observedGeneration` than
 * `desired` (top level or in a paired condition/entry), or undefined when writing is safe.
 */
export function newerObservedGeneration(
  desired: unknown,
  live: unknown,
  path = 'status',
): string | undefined {
  if (Array.isArray(desired)) {
    const liveById = indexById(live);
    for (const item of desired) {
      const id = entryIdentity(item);
      if (id === undefined) continue;
      const found = newerObservedGeneration(item, liveById.get(id), `${path}[${id}]`);
      if (found) return found;
    }
    return undefined;
  }
  if (!isRecord(desired) || !isRecord(live)) return undefined;
  const ours = desired['observedGeneration'];
  const theirs = live['observedGeneration'];
  if (typeof ours === 'number' && typeof theirs === 'number' && theirs > ours)
    return `${path}.observedGeneration`;
  for (const [k, v] of Object.entries(desired)) {
    if (k === 'observedGeneration') continue;
    const found = newerObservedGeneration(v, live[k], `${path}.${k}`);
    if (found) return found;
  }
  return undefined;
}

function indexById(list: unknown): Map<string, unknown> {
  const map = new Map<string, unknown>();
  if (!Array.isArray(list)) return map;
  for (const item of list) {
    const id = entryIdentity(item);
    if (id !== undefined && !map.has(id)) map.set(id, item);
  }
  return map;
}

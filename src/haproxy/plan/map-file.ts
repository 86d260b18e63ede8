import type { RuntimeOp } from './runtime-op.js';

/** One entry of a map file. */
export type MapEntry = readonly [key: string, value: string];

/**
 * Reads a map file the way HAProxy 2.6 loads it: leading blanks skipped, empty lines and lines
 * starting with `#` ignored, the key ends at the first blank, the value is the rest of the line
 * after the blanks that follow the key (trailing blanks kept, CR/LF dropped).
 */
export function parseMapFile(text: string): MapEntry[] {
  const entries: MapEntry[] = [];
  for (const raw of text.split('\n')) {
    const line = raw.replace(/\r$/, '').replace(/^[ \t\v\f]+/, '');
    if (line === '' || line.startsWith('#')) continue;
    const m = /^([^ \t]+)[ \t]*(.*)$/.exec(line);
    if (m === null) continue;
    entries.push([m[1] ?? '', m[2] ?? '']);
  }
  return entries;
}

/** Reads an ACL pattern file: one pattern per line, blanks around it dropped, `#` lines ignored. */
export function parseAclFile(text: string): string[] {
  const patterns: string[] = [];
  for (const raw of text.split('\n')) {
    const line = raw.trim();
    if (line === '' || line.startsWith('#')) continue;
    patterns.push(line);
  }
  return patterns;
}

/** The plan for one map file. */
export interface MapPlan {
  /** Ops that add or change entries (run before removals elsewhere). */
  readonly updates: RuntimeOp[];
  /** Ops that remove entries. */
  readonly deletes: RuntimeOp[];
  /** One-line description, empty when nothing changed. */
  readonly summary: string;
  /** Set when only a reload can apply the change. */
  readonly reload?: string;
}

function hasDuplicateKeys(entries: readonly MapEntry[]): boolean {
  const seen = new Set<string>();
  for (const [k] of entries) {
    if (seen.has(k)) return true;
    seen.add(k);
  }
  return false;
}

function sameEntries(a: readonly MapEntry[], b: readonly MapEntry[]): boolean {
  return a.length === b.length && a.every(([k, v], i) => b[i]?.[0] === k && b[i][1] === v);
}

function plural(n: number, one: string, many: string): string {
  return `${String(n)} ${n === 1 ? one : many}`;
}

/**
 * Plans the runtime change of one map. `ordered` maps (regex and other list lookups: the first
 * match in file order wins) keep incremental ops only when appending reproduces the file order,
 * because `add map` appends; otherwise, and with duplicate keys or more than `limit` changes,
 * the whole map is replaced atomically (prepare/commit).
 */
export function planMapChange(
  names: readonly string[],
  current: readonly MapEntry[],
  desired: readonly MapEntry[],
  ordered: boolean,
  limit: number,
): MapPlan {
  if (sameEntries(current, desired)) return { updates: [], deletes: [], summary: '' };
  const before = new Map(current);
  const empty = desired.find(([k, v]) => v === '' && before.get(k) !== '');
  if (empty !== undefined) {
    // `add map` / `set map` need a value; a key alone cannot be sent through the runtime API.
    return { updates: [], deletes: [], summary: '', reload: `entry ${empty[0]} has no value` };
  }
  const replace = (why: string): MapPlan => ({
    updates: names.map((map) => ({ op: 'map.replace', map, entries: desired })),
    deletes: [],
    summary: `replaced atomically with ${plural(desired.length, 'entry', 'entries')} (${why})`,
  });
  if (hasDuplicateKeys(current) || hasDuplicateKeys(desired)) return replace('duplicate keys');
  const cur = new Map(current);
  const des = new Map(desired);
  const added: MapEntry[] = desired.filter(([k]) => !cur.has(k));
  const changed: MapEntry[] = desired.filter(([k, v]) => cur.has(k) && cur.get(k) !== v);
  const removed: string[] = current.filter(([k]) => !des.has(k)).map(([k]) => k);
  const count = added.length + changed.length + removed.length;
  if (count === 0) {
    if (!ordered) return { updates: [], deletes: [], summary: '' };
    return replace('entries reordered in an order-sensitive map');
  }
  if (ordered) {
    const result = [
      ...current.filter(([k]) => des.has(k)).map(([k]) => k),
      ...added.map(([k]) => k),
    ];
    if (result.some((k, i) => desired[i]?.[0] !== k))
      return replace('order-sensitive map, new order differs');
  }
  if (count > limit) return replace(`${String(count)} changes, above ${String(limit)}`);
  const updates: RuntimeOp[] = [];
  const deletes: RuntimeOp[] = [];
  for (const map of names) {
    for (const [key, value] of changed) updates.push({ op: 'map.set', map, key, value });
    for (const [key, value] of added) updates.push({ op: 'map.add', map, key, value });
    for (const key of removed) deletes.push({ op: 'map.delete', map, key });
  }
  const parts = [
    added.length > 0 ? `${String(added.length)} added` : '',
    changed.length > 0 ? `${String(changed.length)} changed` : '',
    removed.length > 0 ? `${String(removed.length)} removed` : '',
  ].filter((p) => p !== '');
  return { updates, deletes, summary: `entries ${parts.join(', ')}` };
}

/** Plans the runtime change of one ACL pattern file (pattern order does not change a match). */
export function planAclChange(
  names: readonly string[],
  current: readonly string[],
  desired: readonly string[],
  limit: number,
): MapPlan {
  const cur = new Set(current);
  const des = new Set(desired);
  const added = [...des].filter((p) => !cur.has(p));
  const removed = [...cur].filter((p) => !des.has(p));
  const count = added.length + removed.length;
  if (count === 0) return { updates: [], deletes: [], summary: '' };
  if (count > limit) {
    return {
      updates: names.map((acl) => ({ op: 'acl.replace', acl, patterns: desired })),
      deletes: [],
      summary: `replaced atomically with ${plural(desired.length, 'pattern', 'patterns')} (${String(count)} changes, above ${String(limit)})`,
    };
  }
  const updates: RuntimeOp[] = [];
  const deletes: RuntimeOp[] = [];
  for (const acl of names) {
    for (const pattern of added) updates.push({ op: 'acl.add', acl, pattern });
    for (const pattern of removed) deletes.push({ op: 'acl.delete', acl, pattern });
  }
  const parts = [
    added.length > 0 ? `${String(added.length)} added` : '',
    removed.length > 0 ? `${String(removed.length)} removed` : '',
  ].filter((p) => p !== '');
  return { updates, deletes, summary: `patterns ${parts.join(', ')}` };
}

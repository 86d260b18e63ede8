/**
 * Reading `metadata.managedFields`: which fields of an object a manager owns, as the FieldsV1
 * trie the API server records (`f:<name>` fields, `k:<json>` list-map entries, `v:<json>` set
 * values, `i:<n>` list indexes, `.` the node itself).
 */

/** One entry of `metadata.managedFields`. */
export interface ManagedFieldsEntry {
  readonly manager?: string;
  readonly operation?: 'Apply' | 'Update';
  readonly apiVersion?: string;
  readonly time?: string;
  readonly fieldsType?: string;
  readonly fieldsV1?: FieldsV1;
  readonly subresource?: string;
}

/** A FieldsV1 trie node: an empty object marks a leaf the manager owns as a whole. */
export interface FieldsV1 {
  readonly [key: string]: FieldsV1;
}

/** Which entry to read: manager, operation (default Apply) and subresource ('' = main resource). */
export interface ManagerSelector {
  readonly manager: string;
  readonly operation?: 'Apply' | 'Update';
  readonly subresource?: string;
}

/** Reads the managedFields entries of an object, tolerating their absence. */
export function managedFieldsOf(obj: unknown): readonly ManagedFieldsEntry[] {
  if (!isRecord(obj)) return [];
  const meta = obj['metadata'];
  if (!isRecord(meta)) return [];
  const mf = meta['managedFields'];
  return Array.isArray(mf) ? (mf as ManagedFieldsEntry[]) : [];
}

/** The entry matching `sel`, or undefined when the manager owns nothing there. */
export function findManagedFields(
  obj: unknown,
  sel: ManagerSelector,
): ManagedFieldsEntry | undefined {
  const operation = sel.operation ?? 'Apply';
  const sub = sel.subresource ?? '';
  return managedFieldsOf(obj).find(
    (e) => e.manager === sel.manager && e.operation === operation && (e.subresource ?? '') === sub,
  );
}

/**
 * The subset of `obj` that the manager selected by `sel` owns, built by walking its FieldsV1
 * over the object. List-map entries keep their key fields so the result is a valid apply
 * body; list order follows the live object. Returns `{}` when the manager owns nothing.
 */
export function extractOwned(obj: unknown, sel: ManagerSelector): Record<string, unknown> {
  const fields = findManagedFields(obj, sel)?.fieldsV1;
  if (!fields || !isRecord(obj)) return {};
  const out = extractNode(obj, fields);
  return isRecord(out) ? out : {};
}

/** Walks one FieldsV1 node over one value; undefined when nothing owned is present. */
export function extractNode(value: unknown, fields: FieldsV1): unknown {
  const keys = Object.keys(fields).filter((k) => k !== '.');
  // `{}` is a leaf: the manager owns the whole value (a scalar, an atomic list or map).
  // `{".": {}}` alone owns only the existence of a map or list entry, none of its fields.
  if (keys.length === 0) return '.' in fields && isRecord(value) ? {} : value;
  if (Array.isArray(value)) return extractList(value, fields, keys);
  if (!isRecord(value)) return undefined;
  const out: Record<string, unknown> = {};
  for (const key of keys) {
    if (!key.startsWith('f:')) continue;
    const name = key.slice(2);
    if (!(name in value)) continue;
    const sub = extractNode(value[name], fields[key] ?? {});
    if (sub !== undefined) out[name] = sub;
  }
  return out;
}

function extractList(list: readonly unknown[], fields: FieldsV1, keys: string[]): unknown[] {
  const picked = new Map<number, unknown>();
  // Entries are found through an index per set of key field names: one pass over the list
  // instead of one per owned key (lists of conditions are walked on every status decision).
  const byKeyNames = new Map<string, Map<string, number>>();
  const lookup = (mapKey: Record<string, unknown>): number => {
    const names = Object.keys(mapKey).sort();
    const namesId = names.join('\0');
    let index = byKeyNames.get(namesId);
    if (!index) {
      index = new Map();
      for (let i = 0; i < list.length; i++) {
        const item = list[i];
        if (!isRecord(item)) continue;
        const id = canonicalJson(names.map((n) => item[n]));
        if (!index.has(id)) index.set(id, i);
      }
      byKeyNames.set(namesId, index);
    }
    return index.get(canonicalJson(names.map((n) => mapKey[n]))) ?? -1;
  };
  for (const key of keys) {
    const sub = fields[key] ?? {};
    if (key.startsWith('k:')) {
      const mapKey = parseJson(key.slice(2));
      if (!isRecord(mapKey)) continue;
      const idx = lookup(mapKey);
      if (idx < 0) continue;
      const part = extractNode(list[idx], sub);
      // Key fields identify the entry in an apply body even when another manager owns them.
      picked.set(idx, isRecord(part) ? { ...mapKey, ...part } : { ...mapKey });
    } else if (key.startsWith('v:')) {
      const v = canonicalJson(parseJson(key.slice(2)));
      const idx = list.findIndex((item) => canonicalJson(item) === v);
      if (idx >= 0) picked.set(idx, list[idx]);
    } else if (key.startsWith('i:')) {
      const idx = Number(key.slice(2));
      if (Number.isInteger(idx) && idx >= 0 && idx < list.length) {
        const part = extractNode(list[idx], sub);
        if (part !== undefined) picked.set(idx, part);
      }
    }
  }
  return [...picked.entries()].sort((a, b) => a[0] - b[0]).map(([, v]) => v);
}

function parseJson(text: string): unknown {
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return undefined;
  }
}

/** JSON with object keys sorted at every level: equal values give equal strings. */
export function canonicalJson(value: unknown): string {
  // JSON.stringify(undefined) is undefined at run time, whatever its declared type says.
  return value === undefined ? 'undefined' : JSON.stringify(sortKeys(value));
}

function sortKeys(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(sortKeys);
  if (!isRecord(value)) return value;
  const out: Record<string, unknown> = {};
  for (const k of Object.keys(value).sort()) out[k] = sortKeys(value[k]);
  return out;
}

/** True for a plain JSON object (not an array, not null). */
export function isRecord(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

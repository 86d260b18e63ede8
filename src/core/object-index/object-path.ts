/**
 * The path expressions of `indexBy`, ignore-fields, field selectors and template assertions: a
 * JSONPath subset. Pure and shared, so the live informer store and the fixture store of
 * `haptic validate` read objects by exactly the same rules.
 *
 * Supported: dotted keys (`metadata.namespace`), quoted keys for names with dots or slashes
 * (`metadata.labels['kubernetes.io/service-name']`), array indices (`spec.ports[0]`) and the
 * wildcard (`spec.rules[*].host`, `.*`); an optional leading `$`, `.` or `{...}` wrapper is
 * accepted. Filters, slices and recursive descent are rejected with ObjectPathError.
 *
 * A wildcard makes an expression multi-valued: `spec.rules[*].host` yields every host, and the
 * store indexes the object under each of them.
 */
import { ObjectPathError } from './object-index-errors.js';

/** One step of a compiled path. */
export type PathStep =
  | { readonly kind: 'key'; readonly key: string }
  | { readonly kind: 'index'; readonly index: number }
  | { readonly kind: 'wildcard' };

/** A compiled expression. */
export interface ObjectPath {
  readonly source: string;
  readonly steps: readonly PathStep[];
}

/** Compiles `expr`; throws ObjectPathError naming the expression and offset when unsupported. */
export function compileObjectPath(expr: string): ObjectPath {
  let s = expr.trim();
  if (s.startsWith('{') && s.endsWith('}')) s = s.slice(1, -1).trim();
  if (s.startsWith('$')) s = s.slice(1);
  const steps: PathStep[] = [];
  const fail = (why: string, at: number): never => {
    throw new ObjectPathError(`path expression "${expr}": ${why} at offset ${at}`);
  };
  let i = 0;
  while (i < s.length) {
    const c = s[i];
    if (c === '.') {
      if (s[i + 1] === '.') fail('recursive descent (..) is not supported', i);
      i++;
      continue;
    }
    if (c === '[') {
      const quote = s[i + 1];
      let end: number;
      if (quote === "'" || quote === '"') {
        const close = s.indexOf(quote, i + 2);
        if (close < 0 || s[close + 1] !== ']') fail('unclosed quoted key', i);
        steps.push({ kind: 'key', key: s.slice(i + 2, close) });
        end = close + 1;
      } else {
        end = s.indexOf(']', i);
        if (end < 0) fail('unclosed [', i);
        const inner = s.slice(i + 1, end).trim();
        if (inner === '*') steps.push({ kind: 'wildcard' });
        else if (/^\d+$/.test(inner)) steps.push({ kind: 'index', index: Number(inner) });
        else fail(`unsupported selector [${inner}]`, i);
      }
      i = end + 1;
      continue;
    }
    if (c === '*') {
      steps.push({ kind: 'wildcard' });
      i++;
      continue;
    }
    const m = /^[^.[\]'"*]+/.exec(s.slice(i));
    if (!m) return fail('unexpected character', i);
    const key = m[0];
    if (/[?()@\s]/.test(key)) fail('filters and spaces are not supported', i);
    steps.push({ kind: 'key', key });
    i += key.length;
  }
  if (steps.length === 0) fail('empty path', 0);
  return { source: expr, steps };
}

function children(value: unknown, step: PathStep): unknown[] {
  if (value === null || typeof value !== 'object') return [];
  switch (step.kind) {
    case 'key':
      return !Array.isArray(value) && Object.hasOwn(value, step.key)
        ? [(value as Record<string, unknown>)[step.key]]
        : [];
    case 'index':
      return Array.isArray(value) && step.index < value.length ? [value[step.index]] : [];
    case 'wildcard':
      return Array.isArray(value) ? (value as unknown[]) : Object.values(value);
  }
}

/** Every value `path` reaches in `root`, explicit nulls included (assertions tell them apart). */
export function selectObjectPath(root: unknown, path: ObjectPath): unknown[] {
  let current: unknown[] = [root];
  for (const step of path.steps) {
    current = current.flatMap((v) => children(v, step));
    if (current.length === 0) return current;
  }
  return current;
}

/** Every value `path` reaches in `root` (undefined and null left out). */
export function evaluateObjectPath(root: unknown, path: ObjectPath): unknown[] {
  return selectObjectPath(root, path).filter((v) => v !== undefined && v !== null);
}

/** A value as an index key: strings as is, scalars stringified, objects as JSON. */
export function keyString(value: unknown): string {
  if (typeof value === 'string') return value;
  if (typeof value === 'number' || typeof value === 'boolean') return String(value);
  return JSON.stringify(value);
}

/**
 * The key strings `path` yields for `root`: one per match, deduplicated, and `['']` when
 * nothing matches (so objects missing the field can still be found with the key `''`).
 */
export function pathKeys(root: unknown, path: ObjectPath): string[] {
  const values = evaluateObjectPath(root, path);
  if (values.length === 0) return [''];
  return [...new Set(values.map(keyString))];
}

/** Removes whatever `path` reaches from `root`, in place (array elements are spliced out). */
export function deleteAtPath(root: unknown, path: ObjectPath): void {
  const steps = path.steps;
  const last = steps[steps.length - 1];
  if (!last) return;
  let parents: unknown[] = [root];
  for (const step of steps.slice(0, -1)) parents = parents.flatMap((v) => children(v, step));
  for (const parent of parents) {
    if (parent === null || typeof parent !== 'object') continue;
    if (last.kind === 'key' && !Array.isArray(parent)) {
      // eslint-disable-next-line @typescript-eslint/no-dynamic-delete -- the key is the user's ignore-field
      delete (parent as Record<string, unknown>)[last.key];
    } else if (last.kind === 'index' && Array.isArray(parent) && last.index < parent.length) {
      parent.splice(last.index, 1);
    } else if (last.kind === 'wildcard') {
      if (Array.isArray(parent)) parent.length = 0;
      else
        for (const k of Object.keys(parent))
          // eslint-disable-next-line @typescript-eslint/no-dynamic-delete -- wildcard clears all keys
          delete (parent as Record<string, unknown>)[k];
    }
  }
}

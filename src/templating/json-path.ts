/**
 * A small JSONPath subset, enough for `indexBy` keys and `jsonpath` assertions:
 * `metadata.name`, `.spec.rules[0].host`, `$.a.b`, `{.a.b}`, `labels['app.kubernetes.io/name']`,
 * `items[*].name` and `.*`. Filters and slices are not supported and are rejected.
 */
import { toText } from './to-text.js';
import { TemplateConfigError } from './template-errors.js';

/** One step of a compiled path. */
type Step =
  | { readonly kind: 'key'; readonly key: string }
  | { readonly kind: 'index'; readonly index: number }
  | { readonly kind: 'wildcard' };

const cache = new Map<string, readonly Step[]>();

/** Compiles `expr`; throws TemplateConfigError naming the expression when it is not supported. */
export function compileJsonPath(expr: string): readonly Step[] {
  const cached = cache.get(expr);
  if (cached) return cached;
  let s = expr.trim();
  if (s.startsWith('{') && s.endsWith('}')) s = s.slice(1, -1).trim();
  if (s.startsWith('$')) s = s.slice(1);
  const steps: Step[] = [];
  let i = 0;
  const fail = (why: string): never => {
    throw new TemplateConfigError(`JSONPath "${expr}": ${why} at offset ${i}`);
  };
  while (i < s.length) {
    const c = s[i];
    if (c === '.') {
      i++;
      continue;
    }
    if (c === '[') {
      const end = s.indexOf(']', i);
      if (end < 0) fail('unclosed [');
      const inner = s.slice(i + 1, end).trim();
      if (inner === '*') steps.push({ kind: 'wildcard' });
      else if (/^\d+$/.test(inner)) steps.push({ kind: 'index', index: Number(inner) });
      else if (/^'[^']*'$/.test(inner) || /^"[^"]*"$/.test(inner))
        steps.push({ kind: 'key', key: inner.slice(1, -1) });
      else fail(`unsupported selector [${inner}]`);
      i = end + 1;
      continue;
    }
    if (c === '*') {
      steps.push({ kind: 'wildcard' });
      i++;
      continue;
    }
    const m = /^[^.[\]]+/.exec(s.slice(i));
    if (!m) fail('unexpected character');
    const key = (m as RegExpExecArray)[0];
    if (/[?()@]/.test(key)) fail('filter expressions are not supported');
    steps.push({ kind: 'key', key });
    i += key.length;
  }
  cache.set(expr, steps);
  return steps;
}

function childValues(value: unknown, step: Step): unknown[] {
  if (value === null || typeof value !== 'object') return [];
  switch (step.kind) {
    case 'key': {
      if (Array.isArray(value)) return [];
      const v = (value as Record<string, unknown>)[step.key];
      return v === undefined || !Object.hasOwn(value, step.key) ? [] : [v];
    }
    case 'index':
      return Array.isArray(value) && step.index < value.length
        ? [value[step.index] as unknown]
        : [];
    case 'wildcard':
      return Array.isArray(value) ? [...(value as unknown[])] : Object.values(value);
  }
}

/** Evaluates `expr` against `root` and returns every matched value (empty when nothing matches). */
export function evaluateJsonPath(root: unknown, expr: string): unknown[] {
  let current: unknown[] = [root];
  for (const step of compileJsonPath(expr)) {
    current = current.flatMap((v) => childValues(v, step));
    if (current.length === 0) break;
  }
  return current;
}

/** The value a JSONPath key yields for indexing: the first match as a string, '' when absent. */
export function jsonPathKey(root: unknown, expr: string): string {
  const [first] = evaluateJsonPath(root, expr);
  if (first === undefined || first === null) return '';
  return typeof first === 'object' ? JSON.stringify(first) : toText(first);
}

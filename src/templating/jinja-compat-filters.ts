/**
 * Jinja2 filters and globals nunjucks 3.2.4 lacks (STACK.md §4), so templates written for
 * Jinja/Ansible read the same: keyword arguments (`map(attribute='x')`, `sort(attribute='x')`),
 * `selectattr`/`rejectattr` with tests, `tojson`, `format`, `unique`, `min`, `max`,
 * `regex_replace`, `regex_search`, `b64encode`/`b64decode`, `combine`, `flatten`, `namespace()`.
 */
import { toText } from './to-text.js';
import { Buffer } from 'node:buffer';
import { posix } from 'node:path';
import type { Environment } from 'nunjucks';
import { InvalidArgumentError } from '../core/errors.js';
import { createJinjaNamespace } from './jinja-namespace.js';

type Kwargs = Record<string, unknown>;

function splitKwargs(args: readonly unknown[]): { positional: unknown[]; kwargs: Kwargs } {
  const last = args[args.length - 1];
  if (typeof last === 'object' && last !== null && '__keywords' in last) {
    const { __keywords: _ignored, ...kwargs } = last as Kwargs;
    return { positional: args.slice(0, -1), kwargs };
  }
  return { positional: [...args], kwargs: {} };
}

function attr(value: unknown, path: string): unknown {
  let cur: unknown = value;
  for (const part of path.split('.')) {
    if (cur === null || typeof cur !== 'object') return undefined;
    cur = (cur as Record<string, unknown>)[part];
  }
  return cur;
}

function toArray(value: unknown, filter: string): unknown[] {
  if (Array.isArray(value)) return value as unknown[];
  if (value === null || value === undefined) return [];
  if (typeof value === 'string') return Array.from(value);
  if (typeof value === 'object') {
    if (Symbol.iterator in value) return [...(value as Iterable<unknown>)];
    return Object.keys(value);
  }
  throw new InvalidArgumentError(`${filter}: expected a list, got ${typeof value}`);
}

function compare(a: unknown, b: unknown, caseSensitive: boolean): number {
  let x = a;
  let y = b;
  if (!caseSensitive) {
    if (typeof x === 'string') x = x.toLowerCase();
    if (typeof y === 'string') y = y.toLowerCase();
  }
  if (x === y) return 0;
  if (x === undefined || x === null) return -1;
  if (y === undefined || y === null) return 1;
  if (typeof x === 'number' && typeof y === 'number') return x - y;
  return toText(x) < toText(y) ? -1 : 1;
}

/** JSON with object keys sorted, as Jinja's tojson does, so output is deterministic. */
export function stableJson(value: unknown, indent?: number): string {
  const sortKeys = (v: unknown): unknown => {
    if (Array.isArray(v)) return v.map(sortKeys);
    if (v !== null && typeof v === 'object') {
      const out: Record<string, unknown> = {};
      for (const k of Object.keys(v).sort()) out[k] = sortKeys((v as Record<string, unknown>)[k]);
      return out;
    }
    return v;
  };
  // JSON.stringify returns undefined for undefined and functions, whatever its typing says.
  const sorted = sortKeys(value);
  return sorted === undefined || typeof sorted === 'function'
    ? 'null'
    : JSON.stringify(sorted, null, indent);
}

/** Python %-formatting for `%s`, `%d`, `%i`, `%f`, `%x`, `%r`, `%%` with optional width/precision. */
export function pyFormat(fmt: string, args: readonly unknown[]): string {
  let i = 0;
  return fmt.replace(
    /%([-0]?)(\d*)(?:\.(\d+))?([sdifxr%])/g,
    (_m, flag: string, width: string, prec: string, conv: string) => {
      if (conv === '%') return '%';
      const arg = args[i++];
      let s: string;
      switch (conv) {
        case 'd':
        case 'i':
          s = String(Math.trunc(Number(arg)));
          break;
        case 'f':
          s = Number(arg).toFixed(prec ? Number(prec) : 6);
          break;
        case 'x':
          s = Math.trunc(Number(arg)).toString(16);
          break;
        case 'r':
          s = arg === undefined ? 'None' : stableJson(arg);
          break;
        default:
          s = typeof arg === 'object' && arg !== null ? stableJson(arg) : toText(arg);
      }
      const w = width ? Number(width) : 0;
      if (s.length < w) s = flag === '-' ? s.padEnd(w) : s.padStart(w, flag === '0' ? '0' : ' ');
      return s;
    },
  );
}

function globToRegExp(glob: string): RegExp {
  const re = glob
    .replace(/[.+^${}()|[\]\\]/g, '\\$&')
    .replace(/\*/g, '.*')
    .replace(/\?/g, '.');
  return new RegExp(`^${re}$`);
}

/** True when `name` matches a shell-style glob (`*`, `?`). */
export function globMatch(name: string, glob: string): boolean {
  return globToRegExp(glob).test(name);
}

/** Adds the compatibility filters, tests and globals to `env`. */
export function installJinjaCompatFilters(env: Environment): void {
  const getTest = (name: string): ((v: unknown, ...a: unknown[]) => boolean) =>
    (env as unknown as { getTest(n: string): (v: unknown, ...a: unknown[]) => boolean }).getTest(
      name,
    );
  const addTest = (name: string, fn: (v: unknown, ...a: unknown[]) => boolean): void => {
    (env as unknown as { addTest(n: string, f: unknown): void }).addTest(name, fn);
  };
  const builtinSelect = (items: unknown[], a: readonly unknown[], keep: boolean): unknown[] => {
    const [attribute, testName, ...testArgs] = a;
    if (typeof attribute !== 'string')
      throw new InvalidArgumentError('selectattr/rejectattr: attribute name must be a string');
    const test = testName === undefined ? (v: unknown) => Boolean(v) : getTest(toText(testName));
    return items.filter((item) => test(attr(item, attribute), ...testArgs) === keep);
  };

  addTest('in', (v, container) => toArray(container, 'in').includes(v));
  addTest(
    'match',
    (v, pattern) => typeof v === 'string' && new RegExp(`^(?:${toText(pattern)})`).test(v),
  );
  addTest('search', (v, pattern) => typeof v === 'string' && new RegExp(toText(pattern)).test(v));

  env.addFilter('selectattr', (value: unknown, ...args: unknown[]) =>
    builtinSelect(toArray(value, 'selectattr'), args, true),
  );
  env.addFilter('rejectattr', (value: unknown, ...args: unknown[]) =>
    builtinSelect(toArray(value, 'rejectattr'), args, false),
  );

  env.addFilter('map', (value: unknown, ...args: unknown[]) => {
    const { positional, kwargs } = splitKwargs(args);
    const items = toArray(value, 'map');
    const attribute = kwargs['attribute'];
    if (typeof attribute === 'string') {
      return items.map((item) => attr(item, attribute) ?? kwargs['default']);
    }
    const [filterName, ...filterArgs] = positional;
    if (typeof filterName !== 'string')
      throw new InvalidArgumentError("map: give attribute='name' or a filter name");
    const filter = env.getFilter(filterName);
    return items.map((item) => filter(item, ...filterArgs) as unknown);
  });

  env.addFilter('sort', (value: unknown, ...args: unknown[]) => {
    const { positional, kwargs } = splitKwargs(args);
    const reverse = Boolean(kwargs['reverse'] ?? positional[0] ?? false);
    const caseSensitive = Boolean(kwargs['case_sensitive'] ?? positional[1] ?? false);
    const attribute = (kwargs['attribute'] ?? positional[2]) as string | undefined;
    const items = [...toArray(value, 'sort')];
    const key = (v: unknown): unknown => (attribute === undefined ? v : attr(v, attribute));
    items.sort((a, b) => compare(key(a), key(b), caseSensitive) * (reverse ? -1 : 1));
    return items;
  });

  env.addFilter('unique', (value: unknown, ...args: unknown[]) => {
    const { kwargs } = splitKwargs(args);
    const attribute = kwargs['attribute'] as string | undefined;
    const seen = new Set<unknown>();
    return toArray(value, 'unique').filter((v) => {
      const k = attribute === undefined ? v : attr(v, attribute);
      const id = typeof k === 'object' && k !== null ? stableJson(k) : k;
      if (seen.has(id)) return false;
      seen.add(id);
      return true;
    });
  });

  const extreme =
    (name: string, sign: number) =>
    (value: unknown, ...args: unknown[]): unknown => {
      const { kwargs } = splitKwargs(args);
      const attribute = kwargs['attribute'] as string | undefined;
      const items = toArray(value, name);
      const key = (v: unknown): unknown => (attribute === undefined ? v : attr(v, attribute));
      let best: unknown = undefined;
      for (const item of items) {
        if (best === undefined || compare(key(item), key(best), false) * sign < 0) best = item;
      }
      return best ?? null;
    };
  env.addFilter('min', extreme('min', 1));
  env.addFilter('max', extreme('max', -1));

  env.addFilter('tojson', (value: unknown, indent?: unknown) =>
    stableJson(value, typeof indent === 'number' ? indent : undefined),
  );
  env.addFilter('format', (fmt: unknown, ...args: unknown[]) => pyFormat(toText(fmt), args));
  env.addFilter('items', (value: unknown) =>
    value && typeof value === 'object' ? Object.entries(value) : [],
  );
  env.addFilter('keys', (value: unknown) =>
    value && typeof value === 'object' ? Object.keys(value) : [],
  );
  env.addFilter('values', (value: unknown) =>
    value && typeof value === 'object' ? (Object.values(value) as unknown[]) : [],
  );
  env.addFilter(
    'regex_replace',
    (value: unknown, pattern: unknown, replacement: unknown = '', ...rest: unknown[]) => {
      const { kwargs } = splitKwargs(rest);
      const flags = kwargs['ignorecase'] ? 'gi' : 'g';
      return toText(value).replace(
        new RegExp(toText(pattern), flags),
        toText(replacement).replace(/\\(\d)/g, '$$$1'),
      );
    },
  );
  env.addFilter(
    'regex_search',
    (value: unknown, pattern: unknown) =>
      new RegExp(toText(pattern)).exec(toText(value))?.[0] ?? '',
  );
  env.addFilter('regex_escape', (value: unknown) =>
    toText(value).replace(/[.*+?^${}()|[\]\\]/g, '\\$&'),
  );
  env.addFilter('b64encode', (value: unknown) =>
    Buffer.from(toText(value), 'utf8').toString('base64'),
  );
  env.addFilter('b64decode', (value: unknown) =>
    Buffer.from(toText(value), 'base64').toString('utf8'),
  );
  env.addFilter('basename', (value: unknown) => posix.basename(toText(value)));
  env.addFilter('glob_match', (value: unknown, glob: unknown) =>
    globMatch(toText(value), toText(glob)),
  );
  env.addFilter('combine', (value: unknown, ...others: unknown[]) => {
    const { positional } = splitKwargs(others);
    return Object.assign(
      {},
      value,
      ...positional.filter((o) => o && typeof o === 'object'),
    ) as unknown;
  });
  env.addFilter('flatten', (value: unknown) => toArray(value, 'flatten').flat(Infinity));

  env.addGlobal('namespace', (...args: unknown[]) =>
    createJinjaNamespace(splitKwargs(args).kwargs),
  );
  env.addGlobal('dict', (...args: unknown[]) => ({ ...splitKwargs(args).kwargs }));
}

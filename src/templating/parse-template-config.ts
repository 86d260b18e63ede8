/**
 * Checks the structure of an HAProxyTemplateConfig document and builds the TemplateConfig model.
 * Every problem is a TemplateConfigError naming the field path (`spec.maps["host.map"].template`),
 * so a template author can find it without reading code.
 */
import { posix } from 'node:path';
import {
  ASSERTION_TYPES,
  STATUS_PHASES,
  type AssertionConfig,
  type AssertionTarget,
  type AssertionType,
  type FileLayout,
  type StatusPhase,
  type TemplateConfig,
  type TemplateSource,
  type ValidationTestConfig,
  type WatchedResourceConfig,
} from './template-config.js';
import { toText } from './to-text.js';
import { TemplateConfigError } from './template-errors.js';

/** The API version of HAProxyTemplateConfig. */
export const TEMPLATE_CONFIG_API_VERSION = 'haproxy-haptic.org/v1alpha1';
/** Fixture key of the HAProxy pod store (`controller.haproxy_pods`). */
export const HAPROXY_PODS_FIXTURE = 'haproxy-pods';
/** Name of the validation test whose fixtures are merged into every other test. */
export const GLOBAL_TEST_NAME = '_global';

/** Context names templates always get; extraContext keys may not shadow them. */
export const RESERVED_CONTEXT_NAMES = [
  'resources',
  'controller',
  'pathResolver',
  'shared',
  'fileRegistry',
  'statusPatch',
  'condition',
  'transitionTime',
  'extraContext',
  'templateSnippets',
  'dataplane',
  'now',
] as const;

type Obj = Record<string, unknown>;

function isObj(v: unknown): v is Obj {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

function fieldPath(parent: string, key: string): string {
  return /^[A-Za-z_][A-Za-z0-9_]*$/.test(key)
    ? `${parent}.${key}`
    : `${parent}[${JSON.stringify(key)}]`;
}

function bad(path: string, problem: string): TemplateConfigError {
  return new TemplateConfigError(`${path}: ${problem}`);
}

function obj(v: unknown, path: string, required: boolean): Obj {
  if (v === undefined || v === null) {
    if (required) throw bad(path, 'is required');
    return {};
  }
  if (!isObj(v)) throw bad(path, 'must be a mapping');
  return v;
}

function str(v: unknown, path: string): string {
  if (typeof v !== 'string' || v === '') throw bad(path, 'must be a non-empty string');
  return v;
}

function optStr(v: unknown, path: string): string | undefined {
  if (v === undefined || v === null) return undefined;
  if (typeof v !== 'string') throw bad(path, 'must be a string');
  return v;
}

function templateSource(v: unknown, path: string): TemplateSource {
  const o = obj(v, path, true);
  if (typeof o['template'] !== 'string') throw bad(`${path}.template`, 'must be a string');
  return { template: o['template'] };
}

function templateMap(v: unknown, path: string): Record<string, TemplateSource> {
  const out: Record<string, TemplateSource> = {};
  for (const [k, entry] of Object.entries(obj(v, path, false))) {
    out[k] = templateSource(entry, fieldPath(path, k));
  }
  return out;
}

function fileNameMap(v: unknown, path: string): Record<string, TemplateSource> {
  const out = templateMap(v, path);
  for (const name of Object.keys(out)) {
    if (!/^[A-Za-z0-9][A-Za-z0-9._-]*$/.test(name)) {
      throw bad(
        fieldPath(path, name),
        'file names may hold only letters, digits, ".", "_" and "-"',
      );
    }
  }
  return out;
}

function watchedResources(v: unknown, path: string): Record<string, WatchedResourceConfig> {
  const out: Record<string, WatchedResourceConfig> = {};
  for (const [name, entry] of Object.entries(obj(v, path, true))) {
    const p = fieldPath(path, name);
    if (name === HAPROXY_PODS_FIXTURE)
      throw bad(p, `"${name}" is reserved for the HAProxy pod store`);
    const o = obj(entry, p, true);
    const indexBy = o['indexBy'] ?? ['metadata.namespace', 'metadata.name'];
    if (!Array.isArray(indexBy) || indexBy.some((k) => typeof k !== 'string' || k === '')) {
      throw bad(`${p}.indexBy`, 'must be a list of JSONPath strings');
    }
    out[name] = {
      apiVersion: str(o['apiVersion'], `${p}.apiVersion`),
      resources: str(o['resources'], `${p}.resources`),
      indexBy: indexBy as string[],
    };
  }
  return out;
}

/** Parses an assertion target string; throws naming the target when it is not one we know. */
export function parseAssertionTarget(text: string, path: string): AssertionTarget {
  if (text === 'haproxy.cfg') return { kind: 'haproxy.cfg' };
  if (text === 'rendering_error') return { kind: 'rendering_error' };
  const m = /^(map|file|cert|crt-list):(.+)$/.exec(text);
  if (m?.[1] !== undefined && m[2] !== undefined) {
    return { kind: m[1] as 'map' | 'file' | 'cert' | 'crt-list', name: m[2] };
  }
  // `status:<namespace>/<name>:<phase>`, or `status:<name>:<phase>` for cluster-scoped objects.
  const s = /^status:(?:([^/:]+)\/)?([^/:]+):([A-Za-z]+)$/.exec(text);
  if (s?.[2] !== undefined && s[3] !== undefined) {
    const phase = s[3];
    if (!(STATUS_PHASES as readonly string[]).includes(phase)) {
      throw bad(
        path,
        `unknown status phase "${phase}" in target "${text}" (known: ${STATUS_PHASES.join(', ')})`,
      );
    }
    return { kind: 'status', namespace: s[1] ?? '', name: s[2], phase: phase as StatusPhase };
  }
  throw bad(
    path,
    `unknown assertion target "${text}" (known: haproxy.cfg, map:<name>, file:<name>, cert:<name>, crt-list:<name>, status:[<namespace>/]<name>:<phase>, rendering_error)`,
  );
}

function checkRegex(pattern: string, path: string): void {
  try {
    new RegExp(pattern, 'm');
  } catch (err) {
    throw bad(
      path,
      `invalid regular expression: ${err instanceof Error ? err.message : String(err)}`,
    );
  }
}

function assertion(v: unknown, path: string): AssertionConfig {
  const o = obj(v, path, true);
  const type = str(o['type'], `${path}.type`);
  if (!(ASSERTION_TYPES as readonly string[]).includes(type)) {
    throw bad(
      `${path}.type`,
      `unknown assertion type "${type}" (known: ${ASSERTION_TYPES.join(', ')})`,
    );
  }
  const targetText = optStr(o['target'], `${path}.target`) ?? 'haproxy.cfg';
  const target = parseAssertionTarget(targetText, `${path}.target`);
  const pattern = optStr(o['pattern'], `${path}.pattern`);
  const jsonpath = optStr(o['jsonpath'], `${path}.jsonpath`);
  const description = optStr(o['description'], `${path}.description`);
  const rawExpected = o['expected'];
  let expected: string | undefined;
  if (rawExpected !== undefined && rawExpected !== null) {
    if (typeof rawExpected === 'object') throw bad(`${path}.expected`, 'must be a scalar');
    expected = toText(rawExpected);
  }
  let patterns: string[] | undefined;
  if (o['patterns'] !== undefined) {
    const ps = o['patterns'];
    if (!Array.isArray(ps) || ps.some((p) => typeof p !== 'string')) {
      throw bad(`${path}.patterns`, 'must be a list of strings');
    }
    patterns = ps as string[];
  }
  const t = type as AssertionType;
  switch (t) {
    case 'contains':
    case 'not_contains':
      if (pattern === undefined) throw bad(`${path}.pattern`, `is required for ${t}`);
      checkRegex(pattern, `${path}.pattern`);
      break;
    case 'match_count':
      if (pattern === undefined) throw bad(`${path}.pattern`, 'is required for match_count');
      checkRegex(pattern, `${path}.pattern`);
      if (expected === undefined || !/^\d+$/.test(expected)) {
        throw bad(`${path}.expected`, 'must be a non-negative integer for match_count');
      }
      break;
    case 'match_order':
      if (!patterns || patterns.length === 0) {
        throw bad(`${path}.patterns`, 'must list at least one pattern for match_order');
      }
      patterns.forEach((p, i) => {
        checkRegex(p, `${path}.patterns[${i}]`);
      });
      break;
    case 'equals':
      if (expected === undefined) throw bad(`${path}.expected`, 'is required for equals');
      break;
    case 'jsonpath':
      if (jsonpath === undefined) throw bad(`${path}.jsonpath`, 'is required for jsonpath');
      break;
    case 'haproxy_valid':
    case 'deterministic':
      if (target.kind !== 'haproxy.cfg') {
        throw bad(`${path}.target`, `${t} checks the whole file set and takes no target`);
      }
      break;
  }
  if (target.kind === 'rendering_error' && (t === 'jsonpath' || t === 'match_order')) {
    throw bad(`${path}.target`, `rendering_error cannot be used with ${t}`);
  }
  return {
    type: t,
    targetText,
    target,
    ...(pattern !== undefined && { pattern }),
    ...(patterns !== undefined && { patterns }),
    ...(expected !== undefined && { expected }),
    ...(jsonpath !== undefined && { jsonpath }),
    ...(description !== undefined && { description }),
  };
}

function fixtures(
  v: unknown,
  path: string,
  watched: Readonly<Record<string, WatchedResourceConfig>>,
): Record<string, Obj[]> {
  const out: Record<string, Obj[]> = {};
  for (const [key, list] of Object.entries(obj(v, path, false))) {
    const p = fieldPath(path, key);
    if (key !== HAPROXY_PODS_FIXTURE && !(key in watched)) {
      throw bad(
        p,
        `unknown watched resource "${key}" (known: ${[...Object.keys(watched), HAPROXY_PODS_FIXTURE].join(', ')})`,
      );
    }
    if (!Array.isArray(list)) throw bad(p, 'must be a list of objects');
    out[key] = list.map((item, i) => obj(item, `${p}[${i}]`, true));
  }
  return out;
}

/** Identity of a fixture object for `_global` overriding: apiVersion, kind, namespace, name. */
export function fixtureIdentity(o: Obj): string {
  const meta = isObj(o['metadata']) ? o['metadata'] : {};
  return [o['apiVersion'], o['kind'], meta['namespace'], meta['name']]
    .map((x) => toText(x))
    .join('\u0000');
}

/** Deep merge of plain objects: `over` wins; lists and scalars replace. */
export function deepMerge(base: Readonly<Obj>, over: Readonly<Obj>): Obj {
  const out: Obj = { ...base };
  for (const [k, v] of Object.entries(over)) {
    const cur = out[k];
    out[k] = isObj(cur) && isObj(v) ? deepMerge(cur, v) : v;
  }
  return out;
}

function mergeFixtures(
  global: Record<string, Obj[]>,
  own: Record<string, Obj[]>,
): Record<string, Obj[]> {
  const out: Record<string, Obj[]> = {};
  for (const key of new Set([...Object.keys(global), ...Object.keys(own)])) {
    const mine = own[key] ?? [];
    const replaced = new Set(mine.map(fixtureIdentity));
    out[key] = [...(global[key] ?? []).filter((o) => !replaced.has(fixtureIdentity(o))), ...mine];
  }
  return out;
}

function validationTests(
  v: unknown,
  path: string,
  watched: Readonly<Record<string, WatchedResourceConfig>>,
): Record<string, ValidationTestConfig> {
  const raw = obj(v, path, false);
  const globalPath = fieldPath(path, GLOBAL_TEST_NAME);
  const g = obj(raw[GLOBAL_TEST_NAME], globalPath, false);
  const globalFixtures = fixtures(g['fixtures'], `${globalPath}.fixtures`, watched);
  const globalExtra = obj(g['extraContext'], `${globalPath}.extraContext`, false);
  const out: Record<string, ValidationTestConfig> = {};
  for (const [name, entry] of Object.entries(raw)) {
    if (name === GLOBAL_TEST_NAME) continue;
    const p = fieldPath(path, name);
    const o = obj(entry, p, true);
    const assertionsRaw = o['assertions'] ?? [];
    if (!Array.isArray(assertionsRaw)) throw bad(`${p}.assertions`, 'must be a list');
    out[name] = {
      description: optStr(o['description'], `${p}.description`) ?? '',
      fixtures: mergeFixtures(globalFixtures, fixtures(o['fixtures'], `${p}.fixtures`, watched)),
      assertions: assertionsRaw.map((a, i) => assertion(a, `${p}.assertions[${i}]`)),
      extraContext: deepMerge(globalExtra, obj(o['extraContext'], `${p}.extraContext`, false)),
    };
  }
  return out;
}

/** The default layout: the agent's and the planner's conventions (docs/haproxy-plan.md). */
export const DEFAULT_FILE_LAYOUT: FileLayout = {
  configFile: 'haproxy.cfg',
  mapsDir: 'maps',
  sslCertsDir: 'certs',
  generalStorageDir: 'files',
  crtListDir: 'crt-lists',
};

/**
 * `spec.dataplane` directory overrides. Directories are relative to the base directory. An
 * absolute directory is accepted only when `configFile` is absolute too (its directory names the
 * base directory) and the directory lies below it; it is converted to a relative one, because
 * rendered files must not name one machine's paths.
 */
function layout(v: unknown, path: string): FileLayout {
  const o = obj(v, path, false);
  const configText = optStr(o['configFile'], `${path}.configFile`);
  let baseDir: string | undefined;
  if (configText !== undefined) {
    const normal = posix.normalize(configText);
    if (posix.basename(normal) !== DEFAULT_FILE_LAYOUT.configFile) {
      throw bad(`${path}.configFile`, `must name a file called haproxy.cfg, got "${configText}"`);
    }
    if (posix.isAbsolute(normal)) baseDir = posix.dirname(normal);
    else if (normal !== DEFAULT_FILE_LAYOUT.configFile) {
      throw bad(
        `${path}.configFile`,
        `haproxy.cfg must sit at the base directory's root, got "${configText}"`,
      );
    }
  }
  const dir = (key: keyof FileLayout): string => {
    const field = `${path}.${key}`;
    const value = optStr(o[key], field);
    if (value === undefined || value === '') return DEFAULT_FILE_LAYOUT[key];
    let rel: string;
    if (posix.isAbsolute(value)) {
      if (baseDir === undefined) {
        throw bad(
          field,
          `absolute path "${value}" is outside the base directory; use a path relative to it (e.g. "${DEFAULT_FILE_LAYOUT[key]}"), or set ${path}.configFile to an absolute path that names the base directory`,
        );
      }
      rel = posix.relative(baseDir, posix.normalize(value));
    } else {
      rel = posix.normalize(value);
    }
    rel = rel.replace(/\/+$/, '');
    if (
      rel === '' ||
      rel === '.' ||
      rel === '..' ||
      rel.startsWith('../') ||
      posix.isAbsolute(rel)
    ) {
      throw bad(
        field,
        `"${value}" is not a directory below the base directory${baseDir === undefined ? '' : ` ${baseDir}`}`,
      );
    }
    if (rel.split('/').some((seg) => !/^[A-Za-z0-9][A-Za-z0-9._-]*$/.test(seg))) {
      throw bad(field, `"${value}" may hold only letters, digits, ".", "_", "-" and "/"`);
    }
    return rel;
  };
  const l: FileLayout = {
    configFile: DEFAULT_FILE_LAYOUT.configFile,
    mapsDir: dir('mapsDir'),
    sslCertsDir: dir('sslCertsDir'),
    generalStorageDir: dir('generalStorageDir'),
    crtListDir: dir('crtListDir'),
  };
  return l;
}

const INCLUDE_RE = /\{%-?\s*(include|import|extends|from)\s+(["'])([^"']+)\2/g;

/** Throws when a template includes/imports a snippet name that is not defined. */
function checkStaticIncludes(
  templates: Readonly<Record<string, string>>,
  snippets: ReadonlySet<string>,
): void {
  for (const [name, src] of Object.entries(templates)) {
    for (const m of src.matchAll(INCLUDE_RE)) {
      const target = m[3] ?? '';
      if (!snippets.has(target)) {
        const line = src.slice(0, m.index).split('\n').length;
        throw new TemplateConfigError(
          `template ${name}:${line}: ${m[1] ?? 'include'} of unknown snippet "${target}"`,
        );
      }
    }
  }
}

/** Names under which templates are compiled: entry files carry a kind prefix, snippets their key. */
export function entryTemplateNames(config: TemplateConfig): Record<string, string> {
  const out: Record<string, string> = { 'haproxy.cfg': config.haproxyConfig.template };
  for (const [n, t] of Object.entries(config.maps)) out[`map:${n}`] = t.template;
  for (const [n, t] of Object.entries(config.files)) out[`file:${n}`] = t.template;
  for (const [n, t] of Object.entries(config.sslCertificates)) out[`cert:${n}`] = t.template;
  return out;
}

/** Validates an HAProxyTemplateConfig document (already parsed from YAML) and returns the model. */
export function parseTemplateConfig(doc: unknown): TemplateConfig {
  const root = obj(doc, '(document)', true);
  if (root['apiVersion'] !== TEMPLATE_CONFIG_API_VERSION) {
    throw bad(
      'apiVersion',
      `must be ${TEMPLATE_CONFIG_API_VERSION}, got ${JSON.stringify(root['apiVersion'])}`,
    );
  }
  if (root['kind'] !== 'HAProxyTemplateConfig') {
    throw bad('kind', `must be HAProxyTemplateConfig, got ${JSON.stringify(root['kind'])}`);
  }
  const meta = obj(root['metadata'], 'metadata', false);
  const spec = obj(root['spec'], 'spec', true);
  const watched = watchedResources(spec['watchedResources'], 'spec.watchedResources');
  const settings = obj(spec['templatingSettings'], 'spec.templatingSettings', false);
  const extraContext = obj(settings['extraContext'], 'spec.templatingSettings.extraContext', false);
  for (const key of Object.keys(extraContext)) {
    if ((RESERVED_CONTEXT_NAMES as readonly string[]).includes(key)) {
      throw bad(
        fieldPath('spec.templatingSettings.extraContext', key),
        'shadows a built-in template variable',
      );
    }
  }
  const config: TemplateConfig = {
    name: typeof meta['name'] === 'string' ? meta['name'] : 'haproxy-template-config',
    watchedResources: watched,
    templateSnippets: templateMap(spec['templateSnippets'], 'spec.templateSnippets'),
    haproxyConfig: templateSource(spec['haproxyConfig'], 'spec.haproxyConfig'),
    maps: fileNameMap(spec['maps'], 'spec.maps'),
    files: fileNameMap(spec['files'], 'spec.files'),
    sslCertificates: fileNameMap(spec['sslCertificates'], 'spec.sslCertificates'),
    extraContext,
    validationTests: validationTests(spec['validationTests'], 'spec.validationTests', watched),
    layout: layout(spec['dataplane'], 'spec.dataplane'),
  };
  const all: Record<string, string> = { ...entryTemplateNames(config) };
  for (const [n, t] of Object.entries(config.templateSnippets)) all[n] = t.template;
  checkStaticIncludes(all, new Set(Object.keys(config.templateSnippets)));
  return config;
}

/**
 * The render pipeline: compiles every template of a config once (one cached nunjucks
 * Environment per config) and renders the file set from resource stores. Rendering is pure and
 * deterministic: the same stores, extra context and `now` give byte-identical output.
 */
import { toText } from './to-text.js';
import nunjucks from 'nunjucks';
import { rfc3339Seconds } from '../core/clock.js';
import { globMatch, installJinjaCompatFilters, stableJson } from './jinja-compat-filters.js';
import { installNamespaceAssignment } from './jinja-namespace.js';
import { deepMerge, entryTemplateNames, HAPROXY_PODS_FIXTURE } from './parse-template-config.js';
import { PathResolver, type FileKind } from './path-resolver.js';
import { checksumFiles, type RenderedFiles, type RenderOutput } from './render-output.js';
import { FileRegistry, SharedCache, StatusPatchCollector } from './render-session.js';
import { FixtureStore } from './fixture-store.js';
import type { ResourceStore } from './resource-store.js';
import { condition, transitionTime } from './status-patch.js';
import type { TemplateConfig } from './template-config.js';
import {
  TemplateConfigError,
  TemplateFailError,
  TemplateRenderError,
  type TemplateLocation,
} from './template-errors.js';
import { TENANT_ESCAPING_FILTERS } from './tenant-escaping-filters.js';

/** Inputs of one render. */
export interface RenderInput {
  /** Store per watched resource name; a missing name renders as an empty store. */
  readonly stores: Readonly<Record<string, ResourceStore>>;
  /** `controller.haproxy_pods`; empty when absent. */
  readonly haproxyPods?: ResourceStore;
  /** Deep-merged over `templatingSettings.extraContext`. */
  readonly extraContext?: Readonly<Record<string, unknown>>;
  /** Epoch milliseconds used for condition timestamps; part of the input so renders stay pure. */
  readonly now: number;
}

type MemberLookup = (this: unknown, obj: unknown, key: unknown) => unknown;

let jinjaCompatInstalled = false;

interface NunjucksCompiler {
  buffer: string;
  _tmpid(): string;
  _emit(code: string): void;
  _emitLine(code: string): void;
  _templateName(): string;
  _compileExpression(node: unknown, frame: unknown): void;
}

/**
 * nunjucks compiles `{% include %}` into a callback chain in which the rest of the including
 * template runs inside the included template's render call; an error after an include is then
 * reported against the included template with its line number. Renders here are synchronous, so
 * an include compiles to a plain nested render instead: errors name the template they occur in.
 */
function patchSyncInclude(): void {
  const compiler = (
    nunjucks as unknown as {
      compiler: { Compiler: { prototype: Record<string, unknown> } };
    }
  ).compiler;
  compiler.Compiler.prototype['compileInclude'] = function (
    this: NunjucksCompiler,
    node: { template: unknown; ignoreMissing?: boolean },
    frame: unknown,
  ): void {
    const id = this._tmpid();
    this._emit(`var ${id} = env.getTemplate(`);
    this._compileExpression(node.template, frame);
    this._emitLine(`, false, ${this._templateName()}, ${node.ignoreMissing ? 'true' : 'false'});`);
    this._emitLine(`${this.buffer} += ${id}.render(context.getVariables(), frame);`);
  };
}

interface FramePrototype {
  variables: Record<string, unknown>;
  set(name: string, val: unknown, resolveUp?: boolean): void;
  resolve(name: string, forWrite: boolean): FramePrototype | undefined;
}

/**
 * nunjucks' Frame.set splits every variable name on "." on every call (for-loops set seven
 * `loop.*` names per iteration); it was a third of render time. Same logic, with the split cached.
 */
function patchFrameSet(runtime: { Frame: { prototype: FramePrototype } }): void {
  const parts = new Map<string, readonly string[]>();
  runtime.Frame.prototype.set = function (
    this: FramePrototype,
    name: string,
    val: unknown,
    resolveUp?: boolean,
  ): void {
    let path = parts.get(name);
    if (path === undefined) {
      path = name.split('.');
      parts.set(name, path);
    }
    if (resolveUp) {
      const frame = this.resolve(path[0] ?? name, true);
      if (frame) {
        frame.set(name, val);
        return;
      }
    }
    let obj = this.variables;
    for (let i = 0; i < path.length - 1; i++) {
      const id = path[i] ?? '';
      obj[id] ??= {};
      obj = obj[id] as Record<string, unknown>;
    }
    obj[path[path.length - 1] ?? name] = val;
  };
}

function ensureJinjaCompat(): void {
  // installJinjaCompat patches nunjucks' runtime globally (dict.items(), .get(), slices);
  // installing it twice would wrap the patch twice.
  if (jinjaCompatInstalled) return;
  nunjucks.installJinjaCompat();
  // The compat lookup hands `x.get(...)`, `x.keys()`, `x.items()` ... of every non-array object to
  // Python-dict emulations. That is right for YAML data but wrong for our own objects
  // (`shared.get`, stores): for class instances, call the instance's own method.
  const runtime = (nunjucks as unknown as { runtime: { memberLookup: MemberLookup } }).runtime;
  const compatLookup = runtime.memberLookup;
  runtime.memberLookup = function (this: unknown, obj: unknown, key: unknown): unknown {
    if (typeof key === 'number' && Array.isArray(obj)) return obj[key] as unknown;
    if (typeof obj === 'object' && obj !== null && !Array.isArray(obj) && typeof key === 'string') {
      const member: unknown = (obj as Record<string, unknown>)[key];
      const proto: unknown = Object.getPrototypeOf(obj);
      // Hot path: a data field of a plain object (every `x.metadata.name`) needs no emulation.
      if (proto === Object.prototype && typeof member !== 'function' && Object.hasOwn(obj, key)) {
        return member;
      }
      if (proto !== Object.prototype && proto !== null && typeof member === 'function') {
        return (member as (...a: unknown[]) => unknown).bind(obj);
      }
    }
    return compatLookup.call(this, obj, key);
  };
  patchSyncInclude();
  installNamespaceAssignment();
  patchFrameSet(runtime as unknown as { Frame: { prototype: FramePrototype } });
  jinjaCompatInstalled = true;
}

interface NunjucksError extends Error {
  lineno?: number;
  colno?: number;
  cause?: unknown;
}

const PATH_LINE = /^\s*\(([^\n]*?)\)(?: \[Line \d+(?:, Column \d+)?\])?\s*$/;

/** Turns a nunjucks error into a TemplateRenderError naming the innermost template and line. */
function toRenderError(err: unknown, fallbackTemplate: string): TemplateRenderError {
  if (err instanceof TemplateRenderError) return err;
  if (!(err instanceof Error)) {
    return new TemplateRenderError(
      { template: fallbackTemplate, line: null, column: null },
      String(err),
    );
  }
  const e = err as NunjucksError;
  const lines = e.message.split('\n');
  let template = fallbackTemplate;
  let rest = 0;
  for (let i = 0; i < lines.length; i++) {
    const m = PATH_LINE.exec(lines[i] ?? '');
    if (!m) break;
    if (m[1] && m[1] !== 'unknown path') template = m[1];
    rest = i + 1;
  }
  const cause = e.cause;
  // Errors nunjucks wraps from JS functions (filters, globals) carry 0-based positions; errors
  // it raises itself (parser, undefined output) are already 1-based.
  const wrapped = cause instanceof Error;
  const line = typeof e.lineno === 'number' ? e.lineno + (wrapped ? 1 : 0) : null;
  const column = typeof e.colno === 'number' ? e.colno + (wrapped ? 1 : 0) : null;
  const detail = wrapped
    ? cause.message
    : lines
        .slice(rest)
        .map((l) => l.trim())
        .join(' ')
        .replace(/^Error: /, '')
        .trim() || e.message;
  const location: TemplateLocation = {
    template,
    line: line === 0 ? null : line,
    column: line === 0 ? null : column,
  };
  return new TemplateRenderError(location, detail, { cause: wrapped ? cause : err });
}

/** The message `fail()` raised, when `err` came from it. */
export function failMessageOf(err: unknown): string | null {
  return err instanceof TemplateRenderError && err.cause instanceof TemplateFailError
    ? err.cause.message
    : null;
}

class SnippetLoader extends nunjucks.Loader {
  constructor(private readonly sources: ReadonlyMap<string, string>) {
    super();
  }
  getSource(name: string): nunjucks.LoaderSource {
    const src = this.sources.get(name);
    // nunjucks treats a null source as "template not found".
    if (src === undefined) return null as unknown as nunjucks.LoaderSource;
    return { src, path: name, noCache: false };
  }
}

type CtxThis = { ctx: Record<string, unknown> };

function debugComment(value: unknown, label: unknown): string {
  const head = `# DEBUG${label === undefined ? '' : ` ${toText(label)}`}:`;
  const body = stableJson(value ?? null, 2)
    .split('\n')
    .map((l) => `#   ${l}`)
    .join('\n');
  return `${head}\n${body}\n`;
}

/** A config compiled once; render it as often as needed. */
export class TemplateRenderer {
  private readonly env: nunjucks.Environment;
  private readonly entryNames: readonly string[];
  private readonly snippetNames: readonly string[];
  private readonly declared: Readonly<Record<FileKind, ReadonlySet<string>>>;
  private readonly paths: PathResolver;

  /** Compiles every template of `config`; throws TemplateConfigError naming the template and line. */
  constructor(readonly config: TemplateConfig) {
    ensureJinjaCompat();
    const sources = new Map<string, string>();
    for (const [n, t] of Object.entries(config.templateSnippets)) sources.set(n, t.template);
    const entries = entryTemplateNames(config);
    for (const [n, src] of Object.entries(entries)) sources.set(n, src);
    this.entryNames = Object.keys(entries);
    this.snippetNames = Object.keys(config.templateSnippets).sort();
    this.declared = {
      map: new Set(Object.keys(config.maps)),
      file: new Set(Object.keys(config.files)),
      cert: new Set(Object.keys(config.sslCertificates)),
      'crt-list': new Set<string>(),
    };
    this.paths = new PathResolver(config.layout);
    const env = new nunjucks.Environment(new SnippetLoader(sources), {
      autoescape: false,
      throwOnUndefined: true,
      trimBlocks: true,
      lstripBlocks: true,
      dev: true,
    });
    installJinjaCompatFilters(env);
    for (const [name, fn] of Object.entries(TENANT_ESCAPING_FILTERS)) env.addFilter(name, fn);
    const snippetNames = this.snippetNames;
    env.addGlobal('fail', (message: unknown) => {
      throw new TemplateFailError(toText(message));
    });
    env.addGlobal('debug', debugComment);
    env.addGlobal('render', function (this: CtxThis, name: unknown) {
      return env.getTemplate(toText(name)).render(this.ctx);
    });
    env.addGlobal('render_glob', function (this: CtxThis, pattern: unknown) {
      const glob = toText(pattern);
      return snippetNames
        .filter((n) => globMatch(n, glob))
        .map((n) => env.getTemplate(n).render(this.ctx))
        .join('');
    });
    this.env = env;
    for (const name of [...this.entryNames, ...this.snippetNames]) {
      try {
        env.getTemplate(name, true);
      } catch (err) {
        const re = toRenderError(err, name);
        throw new TemplateConfigError(
          `template ${re.location.template}${re.location.line === null ? '' : `:${re.location.line}`}: ${re.detail}`,
          {
            cause: err,
          },
        );
      }
    }
  }

  /** Builds the template context of one render (also used by `jsonpath` assertions). */
  private context(
    input: RenderInput,
    session: { shared: SharedCache; registry: FileRegistry; patches: StatusPatchCollector },
  ): Record<string, unknown> {
    const resources: Record<string, ResourceStore> = {};
    for (const [name, w] of Object.entries(this.config.watchedResources)) {
      resources[name] = input.stores[name] ?? new FixtureStore(name, [], w.indexBy);
    }
    const extra = input.extraContext
      ? deepMerge(this.config.extraContext, input.extraContext)
      : { ...this.config.extraContext };
    const now = rfc3339Seconds(input.now);
    return {
      ...extra,
      extraContext: extra,
      resources,
      controller: {
        haproxy_pods:
          input.haproxyPods ??
          new FixtureStore(HAPROXY_PODS_FIXTURE, [], ['metadata.namespace', 'metadata.name']),
      },
      pathResolver: this.paths,
      dataplane: this.config.layout,
      templateSnippets: this.snippetNames,
      shared: session.shared,
      fileRegistry: session.registry,
      now,
      statusPatch: (resource: unknown, variants: unknown) =>
        session.patches.register(resource, variants),
      condition: (
        type: unknown,
        status: unknown,
        reason: unknown,
        message: unknown,
        gen: unknown,
        ltt: unknown,
      ) => condition(type, status, reason, message, gen, ltt, now),
      transitionTime: (existing: unknown, type: unknown, status: unknown) =>
        transitionTime(existing, type, status, now),
    };
  }

  /** A plain-data view of the render context for `jsonpath` assertions. */
  contextSnapshot(input: RenderInput): Record<string, unknown> {
    const session = {
      shared: new SharedCache(),
      registry: new FileRegistry(this.paths, this.declared),
      patches: new StatusPatchCollector(),
    };
    const ctx = this.context(input, session);
    const resources: Record<string, readonly object[]> = {};
    for (const [name, store] of Object.entries(ctx['resources'] as Record<string, ResourceStore>))
      resources[name] = store.list();
    return {
      ...(ctx['extraContext'] as Record<string, unknown>),
      extraContext: ctx['extraContext'],
      resources,
      controller: { haproxy_pods: input.haproxyPods?.list() ?? [] },
      dataplane: this.config.layout,
      templateSnippets: this.snippetNames,
      now: ctx['now'],
    };
  }

  /** Renders the whole file set. Throws TemplateRenderError naming the template and line. */
  render(input: RenderInput): RenderOutput {
    const session = {
      shared: new SharedCache(),
      registry: new FileRegistry(this.paths, this.declared),
      patches: new StatusPatchCollector(),
    };
    const ctx = this.context(input, session);
    const renderOne = (name: string): string => {
      try {
        return this.env.render(name, ctx);
      } catch (err) {
        const re = toRenderError(err, name);
        re.statusPatches = session.patches.list();
        throw re;
      }
    };
    let haproxyCfg = renderOne('haproxy.cfg');
    if (!haproxyCfg.endsWith('\n')) haproxyCfg += '\n';
    const group = (prefix: string, names: readonly string[]): Record<string, string> => {
      const out: Record<string, string> = {};
      for (const n of [...names].sort()) out[n] = renderOne(`${prefix}:${n}`);
      return out;
    };
    const maps = group('map', Object.keys(this.config.maps));
    const files = group('file', Object.keys(this.config.files));
    const certs = group('cert', Object.keys(this.config.sslCertificates));
    const merge = (kind: FileKind, base: Record<string, string>): Record<string, string> => {
      const all = { ...base };
      for (const [n, c] of session.registry.files[kind]) all[n] = c;
      const sorted: Record<string, string> = {};
      for (const n of Object.keys(all).sort()) sorted[n] = all[n] ?? '';
      return sorted;
    };
    const rendered: RenderedFiles = {
      haproxyCfg,
      maps: merge('map', maps),
      files: merge('file', files),
      certs: merge('cert', certs),
      crtLists: merge('crt-list', {}),
    };
    return {
      files: rendered,
      statusPatches: session.patches.list(),
      checksum: checksumFiles(rendered),
    };
  }
}

/** Compiles `config` into a renderer (throws TemplateConfigError on template syntax errors). */
export function createTemplateRenderer(config: TemplateConfig): TemplateRenderer {
  return new TemplateRenderer(config);
}

/** True when `err` is a render failure (as opposed to a bug or an abort). */
export function isRenderFailure(err: unknown): err is TemplateRenderError {
  return err instanceof TemplateRenderError;
}

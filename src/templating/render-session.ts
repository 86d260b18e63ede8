/**
 * Per-render mutable state exposed to templates: the `shared` compute-once cache, the
 * `fileRegistry` for files created on the fly, and the registered status patches. A session
 * lives for exactly one render, so renders never see each other's state.
 */
import { toText } from './to-text.js';
import { InvalidArgumentError } from '../core/errors.js';
import { FILE_KINDS, isSafeFileName, type FileKind, type PathResolver } from './path-resolver.js';
import { buildStatusPatch, statusPatchKey, type StatusPatch } from './status-patch.js';

/** `shared`: values computed once per render and visible to every template. */
export class SharedCache {
  private readonly values = new Map<string, unknown>();

  /** The value stored under `key`, or null. */
  get(key: string): unknown {
    return this.values.has(key) ? this.values.get(key) : null;
  }

  has(key: string): boolean {
    return this.values.has(key);
  }

  /** Stores `value` under `key` and returns it; use as `{% set _ = shared.set('k', v) %}`. */
  set(key: string, value: unknown): unknown {
    this.values.set(key, value);
    return value;
  }

  /** Returns the cached value, or calls `compute()` once (a macro or function) and caches it. */
  computeIfAbsent(key: string, compute: unknown): unknown {
    if (this.values.has(key)) return this.values.get(key);
    const value: unknown = typeof compute === 'function' ? (compute as () => unknown)() : compute;
    this.values.set(key, value);
    return value;
  }
}

/** `fileRegistry`: templates register auxiliary files they create while rendering. */
export class FileRegistry {
  readonly files: Record<FileKind, Map<string, string>> = {
    map: new Map(),
    file: new Map(),
    cert: new Map(),
    'crt-list': new Map(),
  };

  constructor(
    private readonly paths: PathResolver,
    private readonly declared: Readonly<Record<FileKind, ReadonlySet<string>>>,
  ) {}

  /** Registers `content` as file `name` of `kind` and returns its path relative to the base dir. */
  register(kind: unknown, name: unknown, content: unknown): string {
    if (typeof kind !== 'string' || !(FILE_KINDS as readonly string[]).includes(kind)) {
      throw new InvalidArgumentError(
        `fileRegistry.register: unknown kind ${JSON.stringify(kind)} (known: ${FILE_KINDS.join(', ')})`,
      );
    }
    const k = kind as FileKind;
    if (typeof name !== 'string' || !isSafeFileName(name)) {
      throw new InvalidArgumentError(
        `fileRegistry.register: invalid file name ${JSON.stringify(name)}`,
      );
    }
    if (this.declared[k].has(name)) {
      throw new InvalidArgumentError(
        `fileRegistry.register: ${k} "${name}" is already declared in the config`,
      );
    }
    const text = typeof content === 'string' ? content : toText(content);
    const existing = this.files[k].get(name);
    if (existing !== undefined && existing !== text) {
      throw new InvalidArgumentError(
        `fileRegistry.register: ${k} "${name}" registered twice with different content`,
      );
    }
    this.files[k].set(name, text);
    return this.paths.getPath(name, k);
  }
}

/** Collects `statusPatch(resource, variants)` registrations; a later one for the same object wins per variant. */
export class StatusPatchCollector {
  private readonly patches = new Map<string, StatusPatch>();

  register(resource: unknown, variants: unknown): string {
    const patch = buildStatusPatch(resource, variants);
    const key = statusPatchKey(patch);
    const prev = this.patches.get(key);
    this.patches.set(
      key,
      prev ? { ...patch, variants: { ...prev.variants, ...patch.variants } } : patch,
    );
    return '';
  }

  /** Every patch, sorted by target object. */
  list(): StatusPatch[] {
    return [...this.patches.entries()]
      .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
      .map(([, p]) => p);
  }
}

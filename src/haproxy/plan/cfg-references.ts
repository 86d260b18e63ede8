import { posix } from 'node:path';

import type { ParsedCfg } from './cfg-parser.js';

/**
 * How haproxy.cfg uses a file, which decides what a change of it needs:
 * - `map`: a pattern file used as a map (converters `map*()`, `set-map()`, `del-map()`, `-M -f`);
 * - `acl`: a pattern file used by an ACL (`-f`, `add-acl()`, `del-acl()`);
 * - `cert`: a certificate named by `crt` on a bind or a server;
 * - `crtlist`: a crt-list named by `crt-list` on a bind;
 * - `cafile`: a CA bundle named by `ca-file`;
 * - `general`: anything else the configuration names (error files, Lua, CRL, DH params…),
 *   read only at startup.
 */
export type RefUse = 'map' | 'acl' | 'cert' | 'crtlist' | 'cafile' | 'general';

/** One use of a file by haproxy.cfg. */
export interface FileRef {
  /** The name exactly as written in haproxy.cfg: HAProxy knows the object by this name. */
  readonly name: string;
  /** The FileSet path it resolves to (relative to the base directory). */
  readonly path: string;
  readonly use: RefUse;
  /** For maps: true when some lookup walks the entries in file order (regex, sub, int…). */
  readonly ordered: boolean;
}

/** Every file reference of a configuration, plus settings that change how names resolve. */
export interface CfgReferences {
  readonly refs: readonly FileRef[];
  /** Non-empty when `crt-base` / `ca-base` is set: runtime names then differ from written ones. */
  readonly baseDirectives: readonly string[];
}

/**
 * Resolves a name written in haproxy.cfg to a FileSet path. HAProxy runs with `-C <baseDir>`,
 * so relative names are relative to the base directory; absolute ones count only under
 * `baseDir`. Returns undefined for names outside the base directory.
 */
export function resolveCfgPath(name: string, baseDir: string | undefined): string | undefined {
  let rel = name;
  if (rel.startsWith('/')) {
    if (baseDir === undefined) return undefined;
    const base = baseDir.endsWith('/') ? baseDir : `${baseDir}/`;
    if (!rel.startsWith(base)) return undefined;
    rel = rel.slice(base.length);
  }
  const norm = posix.normalize(rel).replace(/\/+$/, '');
  if (norm === '.' || norm === '' || norm.startsWith('../') || norm === '..') return undefined;
  return norm;
}

const PROXY_KINDS = new Set(['frontend', 'backend', 'listen', 'defaults']);
const TREE_MATCHES = new Set(['str', 'beg', 'ip']);
const CONVERTER = /(?<![\w-])map(?:_([a-z]+))?(?:_([a-z]+))?\(([^,)]*)/g;
const ACTION = /(?<![\w-])(set-map|del-map|add-acl|del-acl)\(([^)]*)\)/g;

/** The FileSet path of a name; plain relative names need no normalising, only odd spellings pay for it. */
function plainOrResolved(arg: string, baseDir: string | undefined): string {
  const plain =
    !arg.startsWith('/') && !arg.startsWith('.') && !arg.includes('/.') && !arg.includes('//');
  return plain ? arg : (resolveCfgPath(arg, baseDir) ?? '');
}

function unquote(s: string): string {
  const t = s.trim();
  return t.length >= 2 && (t[0] === '"' || t[0] === "'") && t.endsWith(t[0]) ? t.slice(1, -1) : t;
}

/**
 * Collects the files a configuration names and how it uses them. Any argument may name a
 * general file; `isFile` (when given) keeps only the arguments that resolve to a known path or
 * are written as a directory (trailing `/`), which keeps the list small on big configurations.
 */
export function collectCfgReferences(
  cfg: ParsedCfg,
  baseDir: string | undefined,
  isFile?: (path: string) => boolean,
): CfgReferences {
  const refs: FileRef[] = [];
  const baseDirectives: string[] = [];
  const add = (name: string, use: RefUse, ordered = false): void => {
    const path = resolveCfgPath(name, baseDir);
    if (path !== undefined) refs.push({ name, path, use, ordered });
  };
  // Indexes of the arguments already classified on the current line (reused, no per-line allocation).
  const consumed: number[] = [];
  for (const section of cfg.sections) {
    const proxy = PROXY_KINDS.has(section.kind);
    for (const line of [section.header, ...section.lines]) {
      const args = line.args;
      const kw = args[0] ?? '';
      if (section.kind === 'global' && (kw === 'crt-base' || kw === 'ca-base')) {
        baseDirectives.push(kw);
      }
      consumed.length = 0;
      const ssl = proxy && (kw === 'bind' || kw === 'server' || kw === 'default-server');
      for (let i = 1; i < args.length; i++) {
        const arg = args[i] ?? '';
        const next = args[i + 1];
        if (
          ssl &&
          next !== undefined &&
          (arg === 'crt' || arg === 'crt-list' || arg === 'ca-file')
        ) {
          add(next, arg === 'crt' ? 'cert' : arg === 'crt-list' ? 'crtlist' : 'cafile');
          consumed.push(i, i + 1);
          i++;
          continue;
        }
        if (proxy && arg === '-f' && next !== undefined) {
          const asMap = args.slice(1, i).includes('-M');
          add(next, asMap ? 'map' : 'acl', asMap);
          consumed.push(i, i + 1);
          i++;
          continue;
        }
        if (!proxy || (!arg.includes('map') && !arg.includes('-acl('))) continue;
        for (const m of arg.matchAll(CONVERTER)) {
          const match = m[1] ?? 'str';
          add(unquote(m[3] ?? ''), 'map', !TREE_MATCHES.has(match));
          consumed.push(i);
        }
        for (const m of arg.matchAll(ACTION)) {
          const action = m[1] ?? '';
          add(unquote(m[2] ?? ''), action.endsWith('-map') ? 'map' : 'acl', false);
          consumed.push(i);
        }
      }
      for (let i = 1; i < args.length; i++) {
        if (consumed.length > 0 && consumed.includes(i)) continue;
        const arg = args[i] ?? '';
        if (isFile !== undefined && !arg.endsWith('/') && !isFile(plainOrResolved(arg, baseDir)))
          continue;
        add(arg, 'general');
      }
    }
  }
  return { refs, baseDirectives };
}

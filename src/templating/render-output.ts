/** What one render produces, and helpers to list it as files at their paths in the layout. */
import { createHash } from 'node:crypto';
import { dirForKind, type FileKind } from './path-resolver.js';
import type { StatusPatch } from './status-patch.js';
import type { FileLayout } from './template-config.js';

/** The rendered file set; every map is keyed by file name, in sorted order. */
export interface RenderedFiles {
  readonly haproxyCfg: string;
  readonly maps: Readonly<Record<string, string>>;
  readonly files: Readonly<Record<string, string>>;
  readonly certs: Readonly<Record<string, string>>;
  readonly crtLists: Readonly<Record<string, string>>;
}

/** Result of a successful render. */
export interface RenderOutput {
  readonly files: RenderedFiles;
  /** Registered status patches, sorted by target object. */
  readonly statusPatches: readonly StatusPatch[];
  /** `sha256:<hex>` over every file name and content. */
  readonly checksum: string;
}

/** One rendered file with its path. */
export interface RenderedFile {
  readonly kind: 'config' | FileKind;
  readonly name: string;
  /** Path relative to the base directory (`haproxy.cfg`, `maps/hosts.map`): the agent's FileSet key. */
  readonly path: string;
  readonly content: string;
}

const GROUPS = [
  ['map', 'maps'],
  ['file', 'files'],
  ['cert', 'certs'],
  ['crt-list', 'crtLists'],
] as const;

/** Lists the file set: haproxy.cfg first, then maps, files, certificates and crt-lists by name. */
export function renderedFileList(files: RenderedFiles, layout: FileLayout): RenderedFile[] {
  const out: RenderedFile[] = [
    {
      kind: 'config',
      name: 'haproxy.cfg',
      path: layout.configFile,
      content: files.haproxyCfg,
    },
  ];
  for (const [kind, key] of GROUPS) {
    for (const [name, content] of Object.entries(files[key])) {
      out.push({ kind, name, path: `${dirForKind(layout, kind)}/${name}`, content });
    }
  }
  return out;
}

/** Checksum of a file set: sha256 over `kind NUL name NUL length NUL content` of each file. */
export function checksumFiles(files: RenderedFiles): string {
  const h = createHash('sha256');
  const add = (kind: string, name: string, content: string): void => {
    h.update(`${kind}\u0000${name}\u0000${Buffer.byteLength(content)}\u0000`);
    h.update(content);
  };
  add('config', 'haproxy.cfg', files.haproxyCfg);
  for (const [kind, key] of GROUPS) {
    for (const name of Object.keys(files[key]).sort()) add(kind, name, files[key][name] ?? '');
  }
  return `sha256:${h.digest('hex')}`;
}

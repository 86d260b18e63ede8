/**
 * Paths of rendered files as templates reference them (`pathResolver.getPath`): relative to the
 * base directory HAProxy runs in (`-C`), e.g. `maps/hosts.map`, the same paths the agent's file
 * set uses, so the planner recognises every reference in haproxy.cfg.
 */
import { InvalidArgumentError } from '../core/errors.js';
import type { FileLayout } from './template-config.js';

/** Kinds of auxiliary files. */
export const FILE_KINDS = ['map', 'file', 'cert', 'crt-list'] as const;
/** An auxiliary file kind. */
export type FileKind = (typeof FILE_KINDS)[number];

const SAFE_NAME = /^[A-Za-z0-9][A-Za-z0-9._-]*$/;

/** True when `name` is a usable file name (no directories, no traversal, no spaces). */
export function isSafeFileName(name: string): boolean {
  return SAFE_NAME.test(name) && name.length <= 253;
}

/** Directory of a file kind in `layout`. */
export function dirForKind(layout: FileLayout, kind: FileKind): string {
  switch (kind) {
    case 'map':
      return layout.mapsDir;
    case 'file':
      return layout.generalStorageDir;
    case 'cert':
      return layout.sslCertsDir;
    case 'crt-list':
      return layout.crtListDir;
  }
}

/** Resolves file names to their paths (relative to the base directory) in the layout. */
export class PathResolver {
  constructor(readonly layout: FileLayout) {}

  /** The path of `name` of `kind` (`map`, `file`, `cert`, `crt-list`), relative to the base dir. */
  getPath(name: unknown, kind: unknown = 'map'): string {
    if (typeof kind !== 'string' || !(FILE_KINDS as readonly string[]).includes(kind)) {
      throw new InvalidArgumentError(
        `pathResolver.getPath: unknown kind ${JSON.stringify(kind)} (known: ${FILE_KINDS.join(', ')})`,
      );
    }
    if (typeof name !== 'string' || !isSafeFileName(name)) {
      throw new InvalidArgumentError(
        `pathResolver.getPath: invalid file name ${JSON.stringify(name)}`,
      );
    }
    return `${dirForKind(this.layout, kind as FileKind)}/${name}`;
  }
}

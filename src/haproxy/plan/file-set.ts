import { createHash } from 'node:crypto';

/** Content of one file: text, or bytes for binary files (OCSP responses, DER). */
export type FileContent = string | Uint8Array;

/**
 * The files of one HAProxy configuration, keyed by path relative to the base directory
 * (`haproxy.cfg`, `maps/hosts.map`, `certs/example.pem`, `crt-lists/bind-443.txt`,
 * `files/errors/503.http`). Paths use `/` and never start with `/` or contain `..`.
 */
export interface FileSet {
  readonly files: ReadonlyMap<string, FileContent>;
}

/** The path of the main configuration inside a FileSet. */
export const HAPROXY_CFG_PATH = 'haproxy.cfg';

/** Builds a FileSet from a plain record (tests, fixtures). */
export function fileSetFromRecord(files: Readonly<Record<string, FileContent>>): FileSet {
  return { files: new Map(Object.entries(files)) };
}

/** The bytes of a file content (UTF-8 for text). */
export function contentBytes(content: FileContent): Uint8Array {
  return typeof content === 'string' ? Buffer.from(content, 'utf8') : content;
}

/** The text of a file content (bytes decoded as UTF-8). */
export function contentText(content: FileContent): string {
  return typeof content === 'string' ? content : Buffer.from(content).toString('utf8');
}

/** True when both contents hold the same bytes. */
export function sameContent(a: FileContent, b: FileContent): boolean {
  if (typeof a === 'string' && typeof b === 'string') return a === b;
  return Buffer.from(contentBytes(a)).equals(contentBytes(b));
}

/** Lower-case hex sha256 of a file content (the digest the agent API exchanges). */
export function digestContent(content: FileContent): string {
  return createHash('sha256').update(contentBytes(content)).digest('hex');
}

/** One entry of a state digest. */
export interface FileDigest {
  readonly path: string;
  readonly digest: string;
}

/** The sha256 of every file of a set, sorted by path (stable for `GET /v1/state`). */
export function digestFileSet(set: FileSet): readonly FileDigest[] {
  return [...set.files.entries()]
    .map(([path, content]) => ({ path, digest: digestContent(content) }))
    .sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0));
}

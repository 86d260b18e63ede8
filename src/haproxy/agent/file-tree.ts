/** Reading the files of a base directory (the agent's own directory excluded). */
import { createHash } from 'node:crypto';
import { readdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { throwIfAborted } from '../../core/abort.js';
import { AGENT_DIR } from './apply-request.js';

/** One file on disk. */
export interface TreeFile {
  readonly digest: string;
  readonly content: Buffer;
}

/** Lower-case hex sha256 of `data`. */
export function sha256Hex(data: Uint8Array): string {
  return createHash('sha256').update(data).digest('hex');
}

/**
 * Reads every regular file below `baseDir` (not following symlinks, skipping sockets and the
 * agent's directory) into a map keyed by `/`-separated relative path.
 */
export async function readFileTree(
  baseDir: string,
  signal?: AbortSignal,
): Promise<Map<string, TreeFile>> {
  const out = new Map<string, TreeFile>();
  const walk = async (rel: string): Promise<void> => {
    throwIfAborted(signal, 'read file tree');
    const entries = await readdir(join(baseDir, rel), { withFileTypes: true });
    for (const e of entries) {
      const path = rel ? `${rel}/${e.name}` : e.name;
      if (e.isDirectory()) {
        if (path === AGENT_DIR) continue;
        await walk(path);
      } else if (e.isFile()) {
        const content = await readFile(join(baseDir, path));
        out.set(path, { digest: sha256Hex(content), content });
      }
    }
  };
  await walk('');
  return out;
}

/** Sorted `{path, digest}` list of a tree. */
export function treeDigests(
  tree: ReadonlyMap<string, { readonly digest: string }>,
): { path: string; digest: string }[] {
  return [...tree.entries()]
    .map(([path, f]) => ({ path, digest: f.digest }))
    .sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0));
}

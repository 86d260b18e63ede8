/**
 * Checks a whole file set (haproxy.cfg plus maps, certificates, general files) with `haproxy -c`
 * in a scratch directory laid out like the base directory, with `-C <scratch>`. Rendered files
 * reference each other by paths relative to the base directory (`maps/hosts.map`), which resolve
 * inside the scratch tree as they do in production. Sets that still name absolute paths below a
 * `baseDir` are remapped into the scratch tree, so the check sees exactly the files being
 * validated, never what happens to be installed.
 */
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, isAbsolute, join, normalize, relative } from 'node:path';
import { InvalidArgumentError } from '../../core/errors.js';
import { throwIfAborted } from '../../core/abort.js';
import { checkHaproxyConfig, type HaproxyCheckResult } from './haproxy-check.js';

/** One file of the set, at its path relative to the base directory (or absolute below `baseDir`). */
export interface FileSetEntry {
  readonly path: string;
  readonly content: string | Uint8Array;
}

/** Options of {@link validateFileSet}. */
export interface ValidateFileSetOptions {
  readonly haproxyBin: string;
  /**
   * Production base directory, needed only when paths (of files or inside them) are absolute:
   * those below it are remapped into the scratch tree.
   */
  readonly baseDir?: string;
  /** Path of the main config, relative to the base directory (or absolute below `baseDir`). */
  readonly configPath: string;
  readonly files: readonly FileSetEntry[];
  readonly signal?: AbortSignal;
  readonly timeoutMs?: number;
  /** Parent of the scratch directory (default: the OS temp directory). */
  readonly scratchParent?: string;
}

function relativeInside(baseDir: string | undefined, path: string): string {
  if (isAbsolute(path) && baseDir === undefined) {
    throw new InvalidArgumentError(
      `file ${path} is absolute; give paths relative to the base directory (or pass baseDir)`,
    );
  }
  const rel = isAbsolute(path) && baseDir !== undefined ? relative(baseDir, path) : normalize(path);
  if (rel === '' || rel === '.' || rel === '..' || rel.startsWith('../') || isAbsolute(rel)) {
    throw new InvalidArgumentError(
      `file ${path} is not below the base directory${baseDir === undefined ? '' : ` ${baseDir}`}`,
    );
  }
  return rel;
}

/** Writes the file set into a fresh scratch tree, runs `haproxy -c` there, and removes the tree. */
export async function validateFileSet(opts: ValidateFileSetOptions): Promise<HaproxyCheckResult> {
  const baseDir =
    opts.baseDir === undefined ? undefined : normalize(opts.baseDir).replace(/\/+$/, '');
  const configRel = relativeInside(baseDir, opts.configPath);
  const entries = opts.files.map((f) => ({
    rel: relativeInside(baseDir, f.path),
    content: f.content,
  }));
  throwIfAborted(opts.signal, 'validate file set');
  const scratch = await mkdtemp(join(opts.scratchParent ?? tmpdir(), 'haptic-validate-'));
  try {
    const remap = (text: string): string =>
      baseDir === undefined ? text : text.replaceAll(`${baseDir}/`, `${scratch}/`);
    for (const { rel, content } of entries) {
      const target = join(scratch, rel);
      await mkdir(dirname(target), { recursive: true });
      await writeFile(target, typeof content === 'string' ? remap(content) : content);
    }
    return await checkHaproxyConfig({
      haproxyBin: opts.haproxyBin,
      baseDir: scratch,
      configPath: configRel,
      ...(opts.signal && { signal: opts.signal }),
      ...(opts.timeoutMs !== undefined && { timeoutMs: opts.timeoutMs }),
    });
  } finally {
    await rm(scratch, { recursive: true, force: true });
  }
}

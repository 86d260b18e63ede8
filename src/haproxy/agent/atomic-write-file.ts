/** Crash-safe file replacement: write a temp file, fsync it, rename it over the target, fsync the directory. */
import { open, rename } from 'node:fs/promises';
import { dirname } from 'node:path';

/** Replaces `path` with `data` so that a crash leaves either the old or the new content. */
export async function atomicWriteFile(path: string, data: string | Uint8Array): Promise<void> {
  const tmp = `${path}.tmp-${process.pid}`;
  const fh = await open(tmp, 'w', 0o600);
  try {
    await fh.writeFile(data);
    await fh.sync();
  } finally {
    await fh.close();
  }
  await rename(tmp, path);
  await fsyncDir(dirname(path));
}

/** fsyncs a directory so a rename inside it survives a crash. */
export async function fsyncDir(dir: string): Promise<void> {
  const fh = await open(dir, 'r');
  try {
    await fh.sync();
  } finally {
    await fh.close();
  }
}

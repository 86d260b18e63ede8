/** Hard link, or a copy when the two paths are on different file systems (separate mounts). */
import { copyFile, link } from 'node:fs/promises';

/** Creates `target` as a hard link to `source`, copying instead across file systems. */
export async function linkOrCopy(source: string, target: string): Promise<void> {
  try {
    await link(source, target);
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== 'EXDEV') throw err;
    await copyFile(source, target);
  }
}

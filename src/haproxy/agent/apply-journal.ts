/**
 * The journal of last-known-good files of one apply. Before any file is replaced, the current
 * version of every path the apply touches is hard-linked into `.haptic-agent/journal/files/`
 * (a rename over the live path leaves that link intact), and `journal.json` records which
 * paths existed. Restoring renames the links back and removes paths that did not exist, so a
 * crash at any point after the journal is written can be undone at the next start.
 */
import { mkdir, readFile, rename, rm, unlink } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { AgentStateError } from './agent-errors.js';
import { AGENT_DIR } from './apply-request.js';
import { atomicWriteFile, fsyncDir } from './atomic-write-file.js';
import { linkOrCopy } from './link-or-copy.js';

/** What journal.json records. */
export interface JournalRecord {
  /** The plan id being applied (to tell a committed transaction from an interrupted one). */
  readonly planId: string;
  readonly entries: readonly { readonly path: string; readonly existed: boolean }[];
}

function journalDir(baseDir: string): string {
  return join(baseDir, AGENT_DIR, 'journal');
}

/** Saves the current version of `paths` and writes journal.json (durably) before returning. */
export async function writeJournal(
  baseDir: string,
  planId: string,
  paths: readonly string[],
  existing: ReadonlySet<string>,
): Promise<JournalRecord> {
  const dir = journalDir(baseDir);
  await rm(dir, { recursive: true, force: true });
  await mkdir(join(dir, 'files'), { recursive: true });
  const entries = [];
  for (const path of paths) {
    const existed = existing.has(path);
    if (existed) {
      const target = join(dir, 'files', path);
      await mkdir(dirname(target), { recursive: true });
      await linkOrCopy(join(baseDir, path), target);
    }
    entries.push({ path, existed });
  }
  const record: JournalRecord = { planId, entries };
  await atomicWriteFile(join(dir, 'journal.json'), JSON.stringify(record));
  return record;
}

/** Reads an interrupted transaction's journal.json, if any. */
export async function readJournal(baseDir: string): Promise<JournalRecord | undefined> {
  let text: string;
  try {
    text = await readFile(join(journalDir(baseDir), 'journal.json'), 'utf8');
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw new AgentStateError('read apply journal', { cause: err });
  }
  try {
    return JSON.parse(text) as JournalRecord;
  } catch (err) {
    throw new AgentStateError('apply journal is corrupt', { cause: err });
  }
}

/** Puts every journaled path back as it was, then drops the journal. */
export async function restoreJournal(baseDir: string, record: JournalRecord): Promise<void> {
  const dir = journalDir(baseDir);
  // haproxy.cfg last, as on the way in, so a crash mid-restore never pairs a new config with old maps.
  const ordered = [...record.entries].sort(
    (a, b) => Number(a.path === 'haproxy.cfg') - Number(b.path === 'haproxy.cfg'),
  );
  for (const { path, existed } of ordered) {
    const live = join(baseDir, path);
    if (existed) {
      const saved = join(dir, 'files', path);
      try {
        await mkdir(dirname(live), { recursive: true });
        await rename(saved, live);
      } catch (err) {
        // Already moved back by an earlier, interrupted restore.
        if ((err as NodeJS.ErrnoException).code !== 'ENOENT') throw err;
      }
    } else {
      await unlink(live).catch((err: unknown) => {
        if ((err as NodeJS.ErrnoException).code !== 'ENOENT') throw err;
      });
    }
  }
  await fsyncDir(baseDir);
  await clearJournal(baseDir);
}

/** Removes the journal (the transaction committed or was restored). */
export async function clearJournal(baseDir: string): Promise<void> {
  await rm(journalDir(baseDir), { recursive: true, force: true });
}

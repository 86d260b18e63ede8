/** Parsing of the master CLI's `show proc` table (HAProxy 2.6 format). */

/** One process row of `show proc`. */
export interface ProcRow {
  readonly pid: number;
  /** For the master: reloads since start; for a worker: reloads it has lived through. */
  readonly reloads: number;
  readonly uptime: string;
  readonly version: string;
}

/** The parsed `show proc` answer. */
export interface ProcTable {
  readonly master: ProcRow & { readonly failed: number };
  /** Current and old workers; the current worker is the one with `reloads === 0`. */
  readonly workers: readonly ProcRow[];
}

const ROW = /^(\d+)\s+(master|worker|\S+)\s+(\d+)(?:\s+\[failed:\s*(\d+)\])?\s+(\S+)\s*(\S*)/;

/** Parses `show proc`; returns undefined when no master row is present. */
export function parseShowProc(text: string): ProcTable | undefined {
  let master: (ProcRow & { failed: number }) | undefined;
  const workers: ProcRow[] = [];
  let section: 'master' | 'workers' | 'programs' = 'master';
  for (const raw of text.split('\n')) {
    const line = raw.trim();
    if (line === '# workers') {
      section = 'workers';
      continue;
    }
    if (line === '# programs') {
      section = 'programs';
      continue;
    }
    if (line === '' || line.startsWith('#')) continue;
    const m = ROW.exec(line);
    if (!m) continue;
    const row: ProcRow = {
      pid: Number(m[1]),
      reloads: Number(m[3]),
      uptime: m[5] ?? '',
      version: m[6] ?? '',
    };
    if (m[2] === 'master' && section === 'master') {
      master = { ...row, failed: Number(m[4] ?? '0') };
    } else if (m[2] === 'worker' && section === 'workers') {
      workers.push(row);
    }
  }
  return master ? { master, workers } : undefined;
}

/** The newest worker (the one that has lived through no reload), if any. */
export function currentWorker(table: ProcTable): ProcRow | undefined {
  return table.workers.find((w) => w.reloads === 0) ?? table.workers[0];
}

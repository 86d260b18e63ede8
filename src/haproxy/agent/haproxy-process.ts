/**
 * Running HAProxy in master-worker mode as a child process:
 * `haproxy -W -S <master-socket> -C <base-dir> -f haproxy.cfg`. `-C` makes every relative path
 * in the config (maps named in converters included, which ignore `default-path` on 2.6) resolve
 * against the base directory.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync } from 'node:fs';
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { sleep } from '../../core/abort.js';
import { DeadlineExceededError } from '../../core/errors.js';
import { MasterCliClient } from '../runtime/master-cli-client.js';
import { currentWorker } from '../runtime/show-proc.js';
import { parseSocketAddress } from '../runtime/socket-address.js';
import { ReloadFailedError } from '../runtime/runtime-errors.js';

/** Options of {@link startHaproxy}. */
export interface StartHaproxyOptions {
  readonly haproxyBin: string;
  readonly baseDir: string;
  /** Master CLI socket path (unix). */
  readonly masterSocket: string;
  /** Config file relative to the base dir (default haproxy.cfg). */
  readonly configFile?: string;
  /** Receives HAProxy's stdout/stderr lines. */
  readonly onOutput?: (line: string) => void;
  readonly signal?: AbortSignal;
  /** How long to wait for the first worker (default 10 s). */
  readonly startTimeoutMs?: number;
}

/** A running master-worker HAProxy. */
export interface HaproxyProcess {
  /** The master's pid. */
  readonly pid: number;
  /** The child process, when this process started HAProxy (absent when attached). */
  readonly child: ChildProcess | undefined;
  /** Stops the master and its workers: SIGTERM, then SIGKILL after `graceMs` (default 5 s). */
  stop(graceMs?: number): Promise<void>;
}

/**
 * The config written when the base dir has none: master-worker, the admin stats socket with
 * `expose-fd listeners`, and no proxy, so HAProxy runs and waits for the first apply.
 */
export function bootstrapConfig(statsSocket: string): string {
  return [
    '# Written by haptic agent: no configuration was present. Replaced by the first apply.',
    'global',
    '    master-worker',
    `    stats socket ${statsSocket} level admin expose-fd listeners`,
    '    hard-stop-after 30s',
    'defaults',
    '    mode http',
    '    timeout connect 5s',
    '    timeout client 30s',
    '    timeout server 30s',
    '',
  ].join('\n');
}

/** Writes the bootstrap config when `<baseDir>/<configFile>` does not exist; true when written. */
export async function ensureBootstrapConfig(
  baseDir: string,
  statsSocket: string,
  configFile = 'haproxy.cfg',
): Promise<boolean> {
  const path = join(baseDir, configFile);
  if (existsSync(path)) return false;
  await writeFile(path, bootstrapConfig(statsSocket), { flag: 'wx' });
  return true;
}

/** Starts HAProxy and resolves once the master CLI lists a worker. */
export async function startHaproxy(opts: StartHaproxyOptions): Promise<HaproxyProcess> {
  const configFile = opts.configFile ?? 'haproxy.cfg';
  const child = spawn(
    opts.haproxyBin,
    ['-W', '-S', opts.masterSocket, '-C', opts.baseDir, '-f', configFile],
    { stdio: ['ignore', 'pipe', 'pipe'] },
  );
  const pid = child.pid;
  if (pid === undefined) {
    await new Promise((resolve) => child.once('error', resolve));
    throw new ReloadFailedError(`could not start ${opts.haproxyBin}`);
  }
  let tail = '';
  const onData = (b: Buffer): void => {
    const text = b.toString('utf8');
    tail = (tail + text).slice(-4000);
    for (const line of text.split('\n')) if (line.trim()) opts.onOutput?.(line);
  };
  child.stdout.on('data', onData);
  child.stderr.on('data', onData);
  const exited = new Promise<void>((resolve) => {
    if (child.exitCode !== null || child.signalCode !== null) resolve();
    else
      child.once('exit', () => {
        resolve();
      });
  });
  const proc: HaproxyProcess = {
    pid,
    child,
    async stop(graceMs = 5_000) {
      if (child.exitCode !== null || child.signalCode !== null) return;
      child.kill('SIGTERM');
      const timer = setTimeout(() => child.kill('SIGKILL'), graceMs);
      await exited;
      clearTimeout(timer);
    },
  };
  const master = new MasterCliClient(parseSocketAddress(opts.masterSocket), { timeoutMs: 2_000 });
  const timeoutMs = opts.startTimeoutMs ?? 10_000;
  const started = performance.now();
  for (;;) {
    if (child.exitCode !== null || child.signalCode !== null) {
      throw new ReloadFailedError(`haproxy exited during start: ${tail.trim().slice(-1000)}`);
    }
    if (performance.now() - started > timeoutMs) {
      await proc.stop(0);
      throw new DeadlineExceededError('haproxy start', timeoutMs);
    }
    try {
      const table = await master.showProc(opts.signal);
      if (currentWorker(table)) return proc;
    } catch {
      // Socket not there yet.
    }
    try {
      await sleep(25, opts.signal);
    } catch (err) {
      await proc.stop(0);
      throw err;
    }
  }
}

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

/**
 * Attaches to a HAProxy master that already answers on `masterSocket` (for example one left
 * running by an agent that was killed); undefined when nothing answers. `stop()` signals the
 * master by pid, as for a child.
 */
export async function attachRunningHaproxy(
  masterSocket: string,
  signal?: AbortSignal,
): Promise<HaproxyProcess | undefined> {
  let pid: number;
  try {
    const master = new MasterCliClient(parseSocketAddress(masterSocket), { timeoutMs: 2_000 });
    pid = (await master.showProc(signal)).master.pid;
  } catch {
    return undefined;
  }
  return {
    pid,
    child: undefined,
    async stop(graceMs = 5_000) {
      if (!alive(pid)) return;
      process.kill(pid, 'SIGTERM');
      const deadline = performance.now() + graceMs;
      while (alive(pid) && performance.now() < deadline) await sleep(20);
      if (alive(pid)) process.kill(pid, 'SIGKILL');
    },
  };
}

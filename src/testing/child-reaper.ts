/**
 * Makes sure child processes started by a test harness die with the test process, however it
 * ends: normal exit, an uncaught error, SIGINT/SIGTERM, or SIGKILL (through a detached watchdog
 * that polls for the parent and kills the children when it is gone).
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { rmSync } from 'node:fs';

const live = new Set<ChildProcess>();
const dirs = new Set<string>();
let hooksInstalled = false;

function killAll(): void {
  for (const child of live) {
    if (child.pid !== undefined && child.exitCode === null && child.signalCode === null) {
      try {
        process.kill(child.pid, 'SIGKILL');
      } catch {
        // Already gone.
      }
    }
  }
  live.clear();
  for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
  dirs.clear();
}

function installHooks(): void {
  if (hooksInstalled) return;
  hooksInstalled = true;
  process.on('exit', killAll);
  for (const sig of ['SIGINT', 'SIGTERM', 'SIGHUP'] as const) {
    process.once(sig, () => {
      killAll();
      // Re-raise with the default action so the exit status still says "killed by signal".
      process.kill(process.pid, sig);
    });
  }
}

/** Forgets a directory registered with reapOnExit after the owner removed it itself. */
export function forgetDir(dir: string): void {
  dirs.delete(dir);
}

/**
 * Registers `child` so it is killed when this process ends, and `removeDir` (a private temp
 * directory) removed with it. The watchdog covers SIGKILL of this process, which runs no handler.
 */
export function reapOnExit(child: ChildProcess, options: { removeDir?: string } = {}): void {
  installHooks();
  live.add(child);
  child.once('exit', () => live.delete(child));
  if (options.removeDir !== undefined) dirs.add(options.removeDir);
  if (child.pid !== undefined) {
    const rm =
      options.removeDir !== undefined ? `; rm -rf '${options.removeDir.replaceAll("'", '')}'` : '';
    // Acts only when the parent is gone, so a child that exited normally is left alone.
    const script = `while kill -0 ${process.pid} 2>/dev/null && kill -0 ${child.pid} 2>/dev/null; do sleep 1; done; if ! kill -0 ${process.pid} 2>/dev/null; then kill -9 ${child.pid} 2>/dev/null${rm}; fi`;
    const watchdog = spawn('sh', ['-c', script], { detached: true, stdio: 'ignore' });
    watchdog.unref();
  }
}

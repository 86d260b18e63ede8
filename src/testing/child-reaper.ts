/**
 * Makes sure child processes started by a test harness die with the test process, however it
 * ends: normal exit, an uncaught error, SIGINT/SIGTERM, or SIGKILL (through a detached watchdog
 * that polls for the parent and kills the children when it is gone).
 */
import { spawn, type ChildProcess } from 'node:child_process';

const live = new Set<ChildProcess>();
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

/**
 * Registers `child` so it is killed when this process ends. The watchdog covers SIGKILL of this
 * process, which runs no handler.
 */
export function reapOnExit(child: ChildProcess): void {
  installHooks();
  live.add(child);
  child.once('exit', () => live.delete(child));
  if (child.pid !== undefined) {
    const script = `while kill -0 ${process.pid} 2>/dev/null && kill -0 ${child.pid} 2>/dev/null; do sleep 1; done; kill -9 ${child.pid} 2>/dev/null`;
    const watchdog = spawn('sh', ['-c', script], { detached: true, stdio: 'ignore' });
    watchdog.unref();
  }
}

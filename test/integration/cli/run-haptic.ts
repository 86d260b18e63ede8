/** Runs the haptic CLI in a child process, as a user would, and captures its output. */
import { execFile } from 'node:child_process';

/** Repository root (the CLI runs from there so relative example paths work). */
export const REPO_ROOT = new URL('../../../', import.meta.url).pathname;

/** Exit code and output of one CLI run. */
export interface HapticRun {
  readonly code: number;
  readonly stdout: string;
  readonly stderr: string;
}

/** Runs `node --import tsx src/main.ts ...args`; the child is killed after 60 s. */
export function runHaptic(args: readonly string[]): Promise<HapticRun> {
  return new Promise((resolve, reject) => {
    execFile(
      process.execPath,
      ['--import', 'tsx', 'src/main.ts', ...args],
      { cwd: REPO_ROOT, timeout: 60_000, maxBuffer: 16 * 1024 * 1024, killSignal: 'SIGKILL' },
      (err, stdout, stderr) => {
        if (err && typeof err.code !== 'number') {
          reject(new Error(`haptic ${args.join(' ')}: ${err.message}`, { cause: err }));
          return;
        }
        resolve({ code: err ? (err.code as number) : 0, stdout, stderr });
      },
    );
  });
}

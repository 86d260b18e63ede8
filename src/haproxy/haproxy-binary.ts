/** Locating the haproxy executable and reading its version. */
import { execFile } from 'node:child_process';
import { accessSync, constants } from 'node:fs';
import { delimiter, join } from 'node:path';
import { TerminalHapticError } from '../core/errors.js';

/** Thrown when no haproxy executable can be found. */
export class HaproxyNotFoundError extends TerminalHapticError {
  readonly code = 'HAPTIC_ERR_HAPROXY_NOT_FOUND';
}

const SYSTEM_DIRS = ['/usr/sbin', '/usr/local/sbin', '/usr/bin', '/usr/local/bin', '/sbin'];

function isExecutable(path: string): boolean {
  try {
    accessSync(path, constants.X_OK);
    return true;
  } catch {
    return false;
  }
}

/**
 * Finds haproxy: `HAPROXY_BIN` when set (must be executable), else the first `haproxy` on PATH
 * or in the usual sbin directories. Throws HaproxyNotFoundError saying what to install.
 */
export function resolveHaproxyBinary(env: NodeJS.ProcessEnv = process.env): string {
  const override = env['HAPROXY_BIN'];
  if (override) {
    if (isExecutable(override)) return override;
    throw new HaproxyNotFoundError(
      `HAPROXY_BIN=${override} is not an executable file; point it at a haproxy binary (2.6 or later)`,
    );
  }
  const dirs = [...(env['PATH'] ?? '').split(delimiter).filter(Boolean), ...SYSTEM_DIRS];
  for (const dir of dirs) {
    const candidate = join(dir, 'haproxy');
    if (isExecutable(candidate)) return candidate;
  }
  throw new HaproxyNotFoundError(
    'haproxy not found on PATH; install HAProxy 2.6 or later (Debian/Ubuntu: apt-get install haproxy) or set HAPROXY_BIN',
  );
}

/** Runs `haproxy -v` and returns the version (e.g. `2.6.12-1+deb12u4`). */
export function haproxyVersion(bin: string, signal?: AbortSignal): Promise<string> {
  return new Promise((resolve, reject) => {
    execFile(bin, ['-v'], { signal, timeout: 10_000 }, (err, stdout) => {
      if (err) {
        reject(new HaproxyNotFoundError(`run ${bin} -v`, { cause: err }));
        return;
      }
      const m = /HAProxy version (\S+)/.exec(stdout);
      resolve(m?.[1] ?? 'unknown');
    });
  });
}

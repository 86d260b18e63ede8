/**
 * Makes sure haproxy exists for tests and demos: finds it, or installs Debian's package with
 * apt-get when running as root, or fails with a message saying what to install.
 */
import { execFileSync } from 'node:child_process';
import { resolveHaproxyBinary } from '../haproxy/haproxy-binary.js';

/** Returns the path of a usable haproxy binary, installing it with apt-get as root if missing. */
export function ensureHaproxy(env: NodeJS.ProcessEnv = process.env): string {
  try {
    return resolveHaproxyBinary(env);
  } catch (err) {
    if (env['HAPROXY_BIN'] || process.getuid?.() !== 0) throw err;
  }
  process.stderr.write('[haproxy] not found; installing Debian package haproxy with apt-get\n');
  execFileSync('apt-get', ['update', '-qq'], { stdio: 'inherit' });
  execFileSync('apt-get', ['install', '-y', '-qq', 'haproxy'], {
    stdio: 'inherit',
    env: { ...process.env, DEBIAN_FRONTEND: 'noninteractive' },
  });
  return resolveHaproxyBinary(env);
}

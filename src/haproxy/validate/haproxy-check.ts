/** Runs `haproxy -c` on a config file set and reports structured findings. */
import { spawn } from 'node:child_process';
import { AbortedError, DeadlineExceededError } from '../../core/errors.js';
import { HaproxyNotFoundError } from '../haproxy-binary.js';
import { parseHaproxyCheckOutput, type HaproxyCheckError } from './parse-haproxy-check-output.js';

export type { HaproxyCheckError } from './parse-haproxy-check-output.js';

/** Outcome of one `haproxy -c` run. */
export interface HaproxyCheckResult {
  /** True when HAProxy accepted the configuration (exit code 0). */
  readonly valid: boolean;
  readonly errors: readonly HaproxyCheckError[];
  readonly warnings: readonly HaproxyCheckError[];
  /** Wall time of the haproxy process, in milliseconds. */
  readonly durationMs: number;
}

/** Options of {@link checkHaproxyConfig}. */
export interface CheckHaproxyConfigOptions {
  readonly haproxyBin: string;
  /** Directory HAProxy changes to (`-C`); relative paths in the config resolve against it. */
  readonly baseDir: string;
  /** The main config file, relative to `baseDir` or absolute. */
  readonly configPath: string;
  readonly signal?: AbortSignal;
  /** Kills haproxy and rejects with DeadlineExceededError after this long (default 30 s). */
  readonly timeoutMs?: number;
}

const DEFAULT_TIMEOUT_MS = 30_000;
const MAX_OUTPUT_BYTES = 4 * 1024 * 1024;

/**
 * Runs `haproxy -c -C <baseDir> -f <configPath>` (configPath relative to baseDir or absolute).
 * `-C` matters on HAProxy 2.6: map files named in converters resolve against the working
 * directory, not the config file's directory.
 */
export function checkHaproxyConfig(opts: CheckHaproxyConfigOptions): Promise<HaproxyCheckResult> {
  const { haproxyBin, baseDir, configPath, signal } = opts;
  const timeoutMs = opts.timeoutMs ?? DEFAULT_TIMEOUT_MS;
  return new Promise((resolve, reject) => {
    if (signal?.aborted) {
      reject(new AbortedError('haproxy -c', { cause: signal.reason }));
      return;
    }
    const started = performance.now();
    const child = spawn(haproxyBin, ['-c', '-C', baseDir, '-f', configPath], {
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    const chunks: Buffer[] = [];
    let size = 0;
    const collect = (b: Buffer): void => {
      if (size >= MAX_OUTPUT_BYTES) return;
      size += b.length;
      chunks.push(b);
    };
    child.stdout.on('data', collect);
    child.stderr.on('data', collect);

    let settled = false;
    const finish = (fn: () => void): void => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      signal?.removeEventListener('abort', onAbort);
      fn();
    };
    const onAbort = (): void => {
      child.kill('SIGKILL');
      finish(() => {
        reject(new AbortedError('haproxy -c', { cause: signal?.reason }));
      });
    };
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      finish(() => {
        reject(new DeadlineExceededError(`haproxy -c -f ${configPath}`, timeoutMs));
      });
    }, timeoutMs);
    signal?.addEventListener('abort', onAbort, { once: true });

    child.on('error', (err) => {
      finish(() => {
        reject(new HaproxyNotFoundError(`run ${haproxyBin} -c`, { cause: err }));
      });
    });
    child.on('close', (code) => {
      finish(() => {
        const durationMs = performance.now() - started;
        const output = Buffer.concat(chunks).toString('utf8');
        const parsed = parseHaproxyCheckOutput(output, { baseDir, configPath });
        const valid = code === 0;
        const errors =
          !valid && parsed.errors.length === 0
            ? [
                {
                  file: parsed.warnings[0]?.file ?? configPath,
                  line: null,
                  message: `haproxy -c exited with code ${String(code)}${output.trim() ? `: ${output.trim().slice(0, 500)}` : ''}`,
                },
              ]
            : parsed.errors;
        resolve({ valid, errors, warnings: parsed.warnings, durationMs });
      });
    });
  });
}

/**
 * The shared fixture of the HAProxy integration tests: temp base dirs, echo backends that name
 * themselves, HAProxy started directly, by an in-process agent or by a `haptic agent` child,
 * JSON calls to the agent, and HTTP through HAProxy. Every process and directory created here is
 * removed by `cleanup()` (registered before the process is waited on, so a failing start is
 * cleaned up too); HAProxy masters and agent children are also SIGKILLed when the test process
 * exits or is killed, in case a test crashes before its `after` hook.
 */
import { createHash } from 'node:crypto';
import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync, mkdirSync } from 'node:fs';
import { createServer, request, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import {
  startHaproxy,
  type HaproxyProcess,
} from '../../../../src/haproxy/agent/haproxy-process.js';
import { startAgent, type RunningAgent } from '../../../../src/haproxy/agent/start-agent.js';
import { RuntimeApiClient } from '../../../../src/haproxy/runtime/runtime-api-client.js';
import { MasterCliClient } from '../../../../src/haproxy/runtime/master-cli-client.js';
import { parseSocketAddress } from '../../../../src/haproxy/runtime/socket-address.js';
import { freePort } from '../../../../src/testing/free-port.js';
import { reapOnExit } from '../../../../src/testing/child-reaper.js';
import { ensureHaproxy } from '../../../../src/testing/haproxy-install.js';

export const TOKEN = 'test-token-0123456789';

/** Whether a process with this pid exists. */
export function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

const livePids = new Set<number>();
process.on('exit', () => {
  for (const pid of livePids) {
    try {
      process.kill(pid, 'SIGKILL');
    } catch {
      // gone
    }
  }
});

/**
 * Makes sure a process dies with the test process: SIGKILL on exit for a bare pid, and the
 * shared child reaper (which also covers a SIGKILLed test process) for a ChildProcess.
 */
export function killOnExit(target: number | ChildProcess | undefined): void {
  if (target === undefined) return;
  if (typeof target === 'number') {
    livePids.add(target);
    return;
  }
  if (target.pid !== undefined) livePids.add(target.pid);
  reapOnExit(target);
}

/** sha256 hex. */
export function digest(content: string | Buffer): string {
  return createHash('sha256').update(content).digest('hex');
}

/** An apply file entry with its content. */
export function withContent(
  path: string,
  content: string | Buffer,
): { path: string; digest: string; content: string } {
  return { path, digest: digest(content), content: Buffer.from(content).toString('base64') };
}

/** A temp directory removed by `cleanup`. */
export class TestEnv {
  readonly dir = mkdtempSync(join(tmpdir(), 'haptic-agent-'));
  readonly baseDir = join(this.dir, 'base');
  readonly masterSocket = join(this.dir, 'master.sock');
  readonly statsSocket = join(this.dir, 'admin.sock');
  readonly haproxyBin = ensureHaproxy();
  readonly #cleanups: (() => Promise<void> | void)[] = [];

  constructor() {
    mkdirSync(this.baseDir);
  }

  /** Registers a cleanup step (run in reverse order). */
  defer(fn: () => Promise<void> | void): void {
    this.#cleanups.push(fn);
  }

  /** Writes files into the base dir. */
  write(files: Record<string, string | Buffer>): void {
    for (const [path, content] of Object.entries(files)) {
      mkdirSync(dirname(join(this.baseDir, path)), { recursive: true });
      writeFileSync(join(this.baseDir, path), content);
    }
  }

  /** Reads a file of the base dir. */
  read(path: string): string {
    return readFileSync(join(this.baseDir, path), 'utf8');
  }

  /** Starts an in-process agent that runs its own HAProxy. */
  async startAgent(
    opts: {
      reloadIntervalMinMs?: number;
      maxBodyBytes?: number;
      tls?: { cert: Buffer; key: Buffer };
    } = {},
  ): Promise<RunningAgent> {
    const agent = await startAgent({
      baseDir: this.baseDir,
      listenHost: '127.0.0.1',
      listenPort: 0,
      token: TOKEN,
      masterSocket: this.masterSocket,
      statsSocket: this.statsSocket,
      haproxyBin: this.haproxyBin,
      startHaproxy: true,
      reloadIntervalMinMs: opts.reloadIntervalMinMs ?? 0,
      ...(opts.maxBodyBytes !== undefined ? { maxBodyBytes: opts.maxBodyBytes } : {}),
      ...(opts.tls ? { tls: opts.tls } : {}),
    });
    killOnExit(agent.haproxy?.child ?? agent.haproxy?.pid);
    this.defer(() => agent.stop());
    return agent;
  }

  /** Starts echo backends (see {@link startEchoBackends}) closed by `cleanup`; returns their ports. */
  async echoBackends(names: readonly string[]): Promise<Record<string, number>> {
    const backends = await startEchoBackends(names);
    this.defer(backends.close);
    return backends.ports;
  }

  /** Starts HAProxy (master-worker, master CLI on `masterSocket`) on the base dir's haproxy.cfg. */
  async startHaproxy(): Promise<HaproxyProcess> {
    const haproxy = await startHaproxy({
      haproxyBin: this.haproxyBin,
      baseDir: this.baseDir,
      masterSocket: this.masterSocket,
    });
    killOnExit(haproxy.child ?? haproxy.pid);
    this.defer(() => haproxy.stop());
    return haproxy;
  }

  /** The master CLI of this env's HAProxy. */
  master(): MasterCliClient {
    return new MasterCliClient(parseSocketAddress(this.masterSocket));
  }

  /** Runs every cleanup step, then removes the directory. */
  async cleanup(): Promise<void> {
    for (const fn of this.#cleanups.reverse()) {
      try {
        await fn();
      } catch {
        // keep cleaning
      }
    }
    rmSync(this.dir, { recursive: true, force: true });
  }
}

/** Echo backends on loopback: each answers `backend=<name>`. */
export async function startEchoBackends(
  names: readonly string[],
): Promise<{ ports: Record<string, number>; close: () => Promise<void> }> {
  const servers: Server[] = [];
  const ports: Record<string, number> = {};
  for (const name of names) {
    const srv = createServer((req, res) => {
      req.resume();
      res.writeHead(200, { 'content-type': 'text/plain', 'x-served-by': name });
      res.end(`backend=${name}\n`);
    });
    srv.keepAliveTimeout = 1000;
    await new Promise<void>((r) =>
      srv.listen(0, '127.0.0.1', () => {
        r();
      }),
    );
    ports[name] = (srv.address() as AddressInfo).port;
    servers.push(srv);
  }
  return {
    ports,
    close: async () => {
      await Promise.all(
        servers.map(
          (s) =>
            new Promise<void>((r) => {
              s.close(() => {
                r();
              });
              s.closeAllConnections();
            }),
        ),
      );
    },
  };
}

/** One HTTP GET through HAProxy (fresh connection); resolves to status, body and headers. */
export function httpGet(
  port: number,
  path = '/',
  host = 'app.test',
): Promise<{
  status: number;
  body: string;
  headers: Record<string, string | string[] | undefined>;
}> {
  return new Promise((resolve, reject) => {
    const req = request(
      { host: '127.0.0.1', port, path, headers: { host }, agent: false },
      (res) => {
        let body = '';
        res.setEncoding('utf8');
        res.on('data', (d: string) => (body += d));
        res.on('end', () => {
          resolve({ status: res.statusCode ?? 0, body, headers: res.headers });
        });
      },
    );
    req.setTimeout(5000, () => req.destroy(new Error('timeout')));
    req.on('error', reject);
    req.end();
  });
}

/** Calls the agent API. */
export async function call(
  agent: { url: string },
  method: string,
  path: string,
  body?: unknown,
  token: string | null = TOKEN,
): Promise<{ status: number; body: any }> {
  const headers: Record<string, string> = { 'content-type': 'application/json' };
  if (token !== null) headers['authorization'] = `Bearer ${token}`;
  const res = await fetch(`${agent.url}${path}`, {
    method,
    headers,
    ...(body !== undefined ? { body: typeof body === 'string' ? body : JSON.stringify(body) } : {}),
  });
  const text = await res.text();
  let parsed: unknown = text;
  try {
    parsed = JSON.parse(text);
  } catch {
    // metrics and the like
  }
  return { status: res.status, body: parsed };
}

/** A free loopback port. */
export { freePort };

/** A self-signed certificate + key PEM bundle for `cn`. */
export function selfSignedPem(dir: string, cn: string): string {
  const key = join(dir, `${cn}.key`);
  const crt = join(dir, `${cn}.crt`);
  execFileSync(
    'openssl',
    [
      'req',
      '-x509',
      '-newkey',
      'ec',
      '-pkeyopt',
      'ec_paramgen_curve:prime256v1',
      '-nodes',
      '-keyout',
      key,
      '-out',
      crt,
      '-days',
      '2',
      '-subj',
      `/CN=${cn}`,
    ],
    { stdio: 'ignore' },
  );
  return `${readFileSync(crt, 'utf8')}${readFileSync(key, 'utf8')}`;
}

/** The subject CN HAProxy presents for SNI `servername` on `port`. */
export async function presentedCn(port: number, servername: string): Promise<string> {
  const { connect } = await import('node:tls');
  return new Promise((resolve, reject) => {
    const s = connect({ host: '127.0.0.1', port, servername, rejectUnauthorized: false }, () => {
      const cn = s.getPeerCertificate().subject.CN;
      s.end();
      resolve(typeof cn === 'string' ? cn : String(cn));
    });
    s.on('error', reject);
  });
}

/** Global and defaults lines every test config starts with (see docs/agent.md). */
export function globalSection(statsSocket: string): string {
  return [
    'global',
    '    master-worker',
    `    stats socket ${statsSocket} level admin expose-fd listeners`,
    '    hard-stop-after 5s',
    '    default-path config',
    'defaults',
    '    mode http',
    '    option idle-close-on-response',
    '    timeout connect 1s',
    '    timeout client 10s',
    '    timeout server 10s',
    '',
  ].join('\n');
}

const ROOT = fileURLToPath(new URL('../../../../', import.meta.url));

/**
 * Runs `haptic agent` as a child process and resolves once it listens (rejects, with the child
 * killed, when it exits first or does not listen within 30 s). With `--start-haproxy` the HAProxy
 * master it runs is killed by `cleanup` too, since a SIGKILLed agent leaves it running.
 */
export async function spawnAgent(
  env: TestEnv,
  port: number,
  fault?: string,
  extraArgs: string[] = [],
): Promise<ChildProcess> {
  const tokenFile = join(env.dir, 'token');
  writeFileSync(tokenFile, `${TOKEN}\n`);
  const child = spawn(
    process.execPath,
    [
      '--import',
      'tsx',
      join(ROOT, 'src/main.ts'),
      'agent',
      '--base-dir',
      env.baseDir,
      '--listen',
      `127.0.0.1:${port}`,
      '--token-file',
      tokenFile,
      '--master-socket',
      env.masterSocket,
      '--stats-socket',
      env.statsSocket,
      '--haproxy-bin',
      env.haproxyBin,
      '--reload-interval-min',
      '0',
      ...extraArgs,
    ],
    {
      cwd: ROOT,
      env: { ...process.env, ...(fault ? { HAPTIC_AGENT_FAULT: fault } : {}) },
      stdio: ['ignore', 'pipe', 'pipe'],
    },
  );
  killOnExit(child);
  env.defer(() => {
    child.kill('SIGKILL');
  });
  let err = '';
  child.stderr.on('data', (d: Buffer) => (err += d.toString()));
  await new Promise<void>((resolve, reject) => {
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      reject(new Error(`agent did not listen within 30 s: ${err.slice(-2000)}`));
    }, 30_000);
    child.stdout.on('data', (d: Buffer) => {
      if (d.toString().includes('agent listening')) {
        clearTimeout(timer);
        resolve();
      }
    });
    child.once('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`agent exited early (${String(code)}): ${err.slice(-2000)}`));
    });
  });
  if (extraArgs.includes('--start-haproxy')) {
    const masterPid = (await env.master().showProc()).master.pid;
    killOnExit(masterPid);
    env.defer(() => {
      if (alive(masterPid)) process.kill(masterPid, 'SIGKILL');
    });
  }
  return child;
}

/** Resolves to the signal that ended `child` (null for a normal exit). */
export function exited(child: ChildProcess): Promise<NodeJS.Signals | null> {
  if (child.exitCode !== null || child.signalCode !== null)
    return Promise.resolve(child.signalCode);
  return new Promise((r) =>
    child.once('exit', (_c, sig) => {
      r(sig);
    }),
  );
}

/**
 * A complete config: {@link globalSection}, frontend `fe` on loopback `httpPort` with
 * `frontendLines` (each without indentation) and backend `be` with server `s` (id 1) on
 * `backendPort`.
 */
export function proxyConfig(
  statsSocket: string,
  httpPort: number,
  backendPort: number,
  frontendLines: readonly string[] = [],
): string {
  return (
    `${globalSection(statsSocket)}frontend fe\n    bind 127.0.0.1:${String(httpPort)}\n` +
    frontendLines.map((l) => `    ${l}\n`).join('') +
    `    default_backend be\nbackend be\n    server s 127.0.0.1:${String(backendPort)} id 1\n`
  );
}

/** A HAProxy started in the foreground (`-db`) from `<dir>/haproxy.cfg` with `-C <dir>`. */
export interface ScratchHaproxyProcess {
  readonly proc: ChildProcess;
  /** Runtime API client on `<dir>/admin.sock` (the configuration must declare it). */
  readonly client: RuntimeApiClient;
}

/** Starts and stops bare HAProxy processes in a scratch directory it removes on cleanup. */
export class ScratchHaproxy {
  readonly scratch = mkdtempSync(join(tmpdir(), 'haptic-scratch-haproxy-'));
  readonly #bin = ensureHaproxy();
  readonly #running = new Set<ChildProcess>();

  /** Starts HAProxy in `dir` and waits until its admin socket answers (stops it otherwise). */
  async start(dir: string): Promise<ScratchHaproxyProcess> {
    const proc = spawn(this.#bin, ['-db', '-f', 'haproxy.cfg', '-C', dir], {
      stdio: ['ignore', 'ignore', 'pipe'],
    });
    this.#running.add(proc);
    killOnExit(proc);
    let stderr = '';
    proc.stderr.on('data', (chunk: Buffer) => {
      stderr += chunk.toString();
    });
    const socket = join(dir, 'admin.sock');
    const client = new RuntimeApiClient({ kind: 'unix', path: socket }, { timeoutMs: 5_000 });
    for (let i = 0; i < 100; i++) {
      if (proc.exitCode !== null) break;
      if (existsSync(socket)) {
        try {
          await client.command(['show', 'info']);
          return { proc, client };
        } catch {
          // not ready yet
        }
      }
      await new Promise((r) => setTimeout(r, 50));
    }
    await this.stop(proc);
    throw new Error(`haproxy did not start in ${dir}: ${stderr}`);
  }

  /** Stops one process (SIGTERM, SIGKILL after 5 s) and waits for its exit. */
  async stop(p: ChildProcess): Promise<void> {
    this.#running.delete(p);
    if (p.exitCode !== null || p.signalCode !== null) return;
    const exited = new Promise<void>((resolve) => {
      p.once('exit', () => {
        resolve();
      });
    });
    p.kill('SIGTERM');
    const timer = setTimeout(() => p.kill('SIGKILL'), 5_000);
    await exited;
    clearTimeout(timer);
  }

  /** Stops every process still running and removes the scratch directory. */
  async cleanup(): Promise<void> {
    for (const p of [...this.#running]) await this.stop(p);
    rmSync(this.scratch, { recursive: true, force: true });
  }
}

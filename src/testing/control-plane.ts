/**
 * A real kube-apiserver and etcd on loopback for integration tests, in the spirit of
 * controller-runtime's envtest. Each instance gets free ports, a private temp directory, static
 * token users (`admin` in system:masters and a restricted `haptic-controller` user), a
 * kubeconfig, and is torn down by `stop()` or, whatever happens to the test process, by the
 * child reaper. No mock API server stands in for it anywhere in the project.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { generateKeyPairSync, randomBytes } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { sleep } from '../core/abort.js';
import { HapticError } from '../core/errors.js';
import { KubeClient } from '../k8s/client/kube-client.js';
import type { ClusterConnection } from '../k8s/client/kube-config.js';
import { applyCrds } from '../k8s/crds/apply-crds.js';
import type { CustomResourceDefinition } from '../k8s/crds/custom-resource.js';
import { projectCrds } from '../k8s/crds/project-crds.js';
import { forgetDir, reapOnExit } from './child-reaper.js';
import {
  resolveControlPlaneBinaries,
  type ControlPlaneBinaries,
} from './control-plane-binaries.js';
import { freePort } from './free-port.js';

/** Thrown when etcd or kube-apiserver does not start or become ready. */
export class ControlPlaneStartError extends HapticError {
  readonly code = 'HAPTIC_ERR_CONTROL_PLANE_START';
}

/** Options of a ControlPlane. */
export interface ControlPlaneOptions {
  /** `--etcd-compaction-interval` of kube-apiserver, e.g. `2s` (default: apiserver default, 5m). */
  readonly etcdCompactionInterval?: string;
  /** Extra kube-apiserver flags, e.g. `['--watch-cache=false']`. */
  readonly apiServerArgs?: readonly string[];
  /** CustomResourceDefinitions to install (server-side apply) and wait for. */
  readonly crds?: readonly object[];
  /** Install the project's own CRDs (src/k8s/crds) before `crds` (default true). */
  readonly installProjectCrds?: boolean;
  /** Readiness deadline for each process in ms (default 60,000). */
  readonly startTimeoutMs?: number;
  /** Binaries; default resolveControlPlaneBinaries(). */
  readonly binaries?: ControlPlaneBinaries;
}

/** The users the static token file defines. */
export type ControlPlaneUser = 'admin' | 'restricted';

/** Name and groups of the restricted user, for RBAC in tests. */
export const RESTRICTED_USER = { name: 'haptic-controller', groups: ['haptic'] } as const;

const TAIL_LINES = 30;

function tailCollector(child: ChildProcess): () => string {
  const lines: string[] = [];
  const push = (chunk: Buffer): void => {
    for (const line of chunk.toString('utf8').split('\n')) {
      if (!line) continue;
      lines.push(line);
      if (lines.length > TAIL_LINES) lines.shift();
    }
  };
  child.stdout?.on('data', push);
  child.stderr?.on('data', push);
  return () => lines.join('\n');
}

/** A running etcd + kube-apiserver pair. Create with `ControlPlane.start()`. */
export class ControlPlane {
  private apiServer: ChildProcess | undefined;
  private apiTail: () => string = () => '';
  private stopped = false;

  private constructor(
    private readonly opts: ControlPlaneOptions,
    private readonly binaries: ControlPlaneBinaries,
    /** Private temp directory: etcd data, certs, tokens, kubeconfig. */
    readonly dir: string,
    private readonly etcd: ChildProcess,
    /** etcd client URL. */
    readonly etcdUrl: string,
    private readonly tokens: Record<ControlPlaneUser, string>,
    private apiPort: number,
  ) {}

  /** Starts etcd and kube-apiserver, waits for `/readyz`, installs the project CRDs and `crds`. */
  static async start(opts: ControlPlaneOptions = {}, signal?: AbortSignal): Promise<ControlPlane> {
    const binaries = opts.binaries ?? resolveControlPlaneBinaries();
    const dir = mkdtempSync(join(tmpdir(), 'haptic-cp-'));
    const tokens: Record<ControlPlaneUser, string> = {
      admin: randomBytes(24).toString('hex'),
      restricted: randomBytes(24).toString('hex'),
    };
    try {
      const { etcd, url } = await startEtcd(
        binaries.etcd,
        dir,
        opts.startTimeoutMs ?? 60_000,
        signal,
      );
      const cp = new ControlPlane(opts, binaries, dir, etcd, url, tokens, 0);
      try {
        writeAuthFiles(dir, tokens);
        await cp.startApiServer(signal);
        if (opts.installProjectCrds !== false) await cp.installProjectCrds(signal);
        if (opts.crds?.length) await cp.installCrds(opts.crds, signal);
        return cp;
      } catch (err) {
        await cp.stop();
        throw err;
      }
    } catch (err) {
      rmSync(dir, { recursive: true, force: true });
      throw err;
    }
  }

  /** Base URL of the API server. */
  get server(): string {
    return `https://127.0.0.1:${this.apiPort}`;
  }

  /** PEM of the API server's self-signed serving certificate (the CA to trust). */
  get caPem(): string {
    return readFileSync(join(this.dir, 'pki', 'apiserver.crt'), 'utf8');
  }

  /** Bearer token of a user. */
  token(user: ControlPlaneUser): string {
    return this.tokens[user];
  }

  /** Connection settings for a user. */
  connection(user: ControlPlaneUser = 'admin'): ClusterConnection {
    return {
      server: this.server,
      caPem: this.caPem,
      token: this.tokens[user],
    };
  }

  /** A KubeClient for a user (no client-side rate limit). */
  client(user: ControlPlaneUser = 'admin'): KubeClient {
    return new KubeClient(this.connection(user), { qps: 0 });
  }

  /** Path of a kubeconfig with contexts `admin` (current) and `restricted`. */
  get kubeconfigPath(): string {
    return join(this.dir, 'kubeconfig');
  }

  /** Kills kube-apiserver (SIGKILL by default) and starts it again on the same port and etcd. */
  async restartApiServer(
    killSignal: NodeJS.Signals = 'SIGKILL',
    signal?: AbortSignal,
  ): Promise<void> {
    await this.stopApiServer(killSignal);
    await this.startApiServer(signal);
  }

  /** Stops kube-apiserver only (etcd keeps running). */
  async stopApiServer(killSignal: NodeJS.Signals = 'SIGTERM'): Promise<void> {
    const p = this.apiServer;
    this.apiServer = undefined;
    if (p) await terminate(p, killSignal);
  }

  /** Starts kube-apiserver (again) on the same port and waits for readiness. */
  async startApiServer(signal?: AbortSignal): Promise<void> {
    const timeoutMs = this.opts.startTimeoutMs ?? 60_000;
    let lastErr: unknown;
    // A free port can be taken between probing and binding; retry on a fresh one.
    for (let attempt = 0; attempt < 3; attempt++) {
      if (this.apiPort === 0 || attempt > 0) this.apiPort = await freePort();
      const child = spawn(this.binaries.kubeApiserver, this.apiServerArgs(), {
        stdio: ['ignore', 'pipe', 'pipe'],
      });
      reapOnExit(child);
      this.apiServer = child;
      this.apiTail = tailCollector(child);
      try {
        await this.waitReady(child, timeoutMs, signal);
        writeKubeconfig(this.kubeconfigPath, this.server, this.caPem, this.tokens);
        return;
      } catch (err) {
        lastErr = err;
        await terminate(child, 'SIGKILL');
        this.apiServer = undefined;
        if (!/address already in use/.test(this.apiTail())) break;
      }
    }
    throw lastErr;
  }

  /** Applies the project's CRDs and waits until their objects can be listed. */
  installProjectCrds(signal?: AbortSignal): Promise<void> {
    return this.installCrds(projectCrds(), signal);
  }

  /**
   * Applies CRDs (each a full CustomResourceDefinition object) with the same installer as
   * `haptic crds apply`, and waits until they are Established and their objects can be listed.
   */
  async installCrds(crds: readonly object[], signal?: AbortSignal): Promise<void> {
    const client = this.client();
    try {
      await applyCrds(client, crds as readonly CustomResourceDefinition[], {
        signal: signal ?? new AbortController().signal,
        fieldManager: 'haptic-test-harness',
      });
    } finally {
      client.close();
    }
  }

  /** `gitVersion` the API server reports (e.g. `v1.34.4`). */
  async version(signal?: AbortSignal): Promise<string> {
    const client = this.client();
    try {
      const v = await client.request<{ gitVersion: string }>({
        method: 'GET',
        path: '/version',
        ...(signal !== undefined && { signal }),
      });
      return v.gitVersion;
    } finally {
      client.close();
    }
  }

  /** Stops both processes and removes the temp directory. Safe to call twice. */
  async stop(): Promise<void> {
    if (this.stopped) return;
    this.stopped = true;
    await this.stopApiServer('SIGTERM');
    await terminate(this.etcd, 'SIGTERM');
    rmSync(this.dir, { recursive: true, force: true });
    forgetDir(this.dir);
  }

  private apiServerArgs(): string[] {
    const d = this.dir;
    return [
      `--etcd-servers=${this.etcdUrl}`,
      '--bind-address=127.0.0.1',
      '--advertise-address=127.0.0.1',
      `--secure-port=${this.apiPort}`,
      `--cert-dir=${join(d, 'pki')}`,
      '--service-cluster-ip-range=10.0.0.0/24',
      '--allow-privileged=true',
      '--disable-admission-plugins=ServiceAccount',
      '--authorization-mode=RBAC',
      `--token-auth-file=${join(d, 'tokens.csv')}`,
      `--service-account-issuer=https://127.0.0.1:${this.apiPort}/`,
      `--service-account-key-file=${join(d, 'sa.pub')}`,
      `--service-account-signing-key-file=${join(d, 'sa.key')}`,
      ...(this.opts.etcdCompactionInterval
        ? [`--etcd-compaction-interval=${this.opts.etcdCompactionInterval}`]
        : []),
      ...(this.opts.apiServerArgs ?? []),
    ];
  }

  private async waitReady(
    child: ChildProcess,
    timeoutMs: number,
    signal?: AbortSignal,
  ): Promise<void> {
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      if (child.exitCode !== null || child.signalCode !== null) {
        throw new ControlPlaneStartError(
          `kube-apiserver exited (${child.exitCode ?? child.signalCode ?? ''}) before it was ready; its last lines:\n${this.apiTail()}`,
        );
      }
      if (await this.probeReady()) return;
      if (Date.now() > deadline) {
        throw new ControlPlaneStartError(
          `kube-apiserver not ready within ${timeoutMs} ms; its last lines:\n${this.apiTail()}`,
        );
      }
      await sleep(200, signal);
    }
  }

  private async probeReady(): Promise<boolean> {
    const client = new KubeClient(
      { server: this.server, insecureSkipTlsVerify: true, token: this.tokens.admin },
      { qps: 0, requestTimeoutMs: 2_000 },
    );
    try {
      await client.request({ method: 'GET', path: '/readyz' }).catch((err: unknown) => {
        // /readyz answers text, not JSON: a parse error after a 200 still means ready.
        if (err instanceof SyntaxError) return;
        throw err;
      });
      return true;
    } catch {
      return false;
    } finally {
      client.close();
    }
  }
}

async function startEtcd(
  bin: string,
  dir: string,
  timeoutMs: number,
  signal?: AbortSignal,
): Promise<{ etcd: ChildProcess; url: string }> {
  let lastErr: unknown;
  for (let attempt = 0; attempt < 3; attempt++) {
    const clientPort = await freePort();
    const peerPort = await freePort();
    const url = `http://127.0.0.1:${clientPort}`;
    const child = spawn(
      bin,
      [
        `--data-dir=${join(dir, 'etcd')}`,
        `--listen-client-urls=${url}`,
        `--advertise-client-urls=${url}`,
        `--listen-peer-urls=http://127.0.0.1:${peerPort}`,
        `--initial-advertise-peer-urls=http://127.0.0.1:${peerPort}`,
        `--initial-cluster=default=http://127.0.0.1:${peerPort}`,
        '--unsafe-no-fsync',
        '--log-level=warn',
      ],
      { stdio: ['ignore', 'pipe', 'pipe'] },
    );
    reapOnExit(child, { removeDir: dir });
    const tail = tailCollector(child);
    const deadline = Date.now() + timeoutMs;
    try {
      for (;;) {
        if (child.exitCode !== null || child.signalCode !== null) {
          throw new ControlPlaneStartError(
            `etcd exited (${child.exitCode ?? child.signalCode ?? ''}) before it was healthy; its last lines:\n${tail()}`,
          );
        }
        const healthy = await fetch(`${url}/health`, { signal: AbortSignal.timeout(1_000) })
          .then(async (r) => ((await r.json()) as { health?: string }).health === 'true')
          .catch(() => false);
        if (healthy) return { etcd: child, url };
        if (Date.now() > deadline)
          throw new ControlPlaneStartError(
            `etcd not healthy within ${timeoutMs} ms; its last lines:\n${tail()}`,
          );
        await sleep(100, signal);
      }
    } catch (err) {
      lastErr = err;
      await terminate(child, 'SIGKILL');
      rmSync(join(dir, 'etcd'), { recursive: true, force: true });
      if (!/address already in use/.test(tail())) break;
    }
  }
  throw lastErr;
}

function writeAuthFiles(dir: string, tokens: Record<ControlPlaneUser, string>): void {
  const { publicKey, privateKey } = generateKeyPairSync('rsa', {
    modulusLength: 2048,
    publicKeyEncoding: { type: 'spki', format: 'pem' },
    privateKeyEncoding: { type: 'pkcs8', format: 'pem' },
  });
  writeFileSync(join(dir, 'sa.pub'), publicKey);
  writeFileSync(join(dir, 'sa.key'), privateKey, { mode: 0o600 });
  writeFileSync(
    join(dir, 'tokens.csv'),
    `${tokens.admin},admin,1,"system:masters"\n${tokens.restricted},${RESTRICTED_USER.name},2,"${RESTRICTED_USER.groups.join(',')}"\n`,
    { mode: 0o600 },
  );
}

function writeKubeconfig(
  path: string,
  server: string,
  caPem: string,
  tokens: Record<ControlPlaneUser, string>,
): void {
  const ca = Buffer.from(caPem).toString('base64');
  const doc = {
    apiVersion: 'v1',
    kind: 'Config',
    'current-context': 'admin',
    clusters: [
      {
        name: 'local',
        cluster: { server, 'certificate-authority-data': ca },
      },
    ],
    users: [
      { name: 'admin', user: { token: tokens.admin } },
      { name: 'restricted', user: { token: tokens.restricted } },
    ],
    contexts: [
      { name: 'admin', context: { cluster: 'local', user: 'admin' } },
      { name: 'restricted', context: { cluster: 'local', user: 'restricted' } },
    ],
  };
  // JSON is valid YAML, so any kubeconfig reader accepts it.
  writeFileSync(path, JSON.stringify(doc, null, 2), { mode: 0o600 });
}

function terminate(child: ChildProcess, killSignal: NodeJS.Signals): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return Promise.resolve();
  return new Promise((resolve) => {
    const force = setTimeout(() => child.kill('SIGKILL'), 10_000);
    child.once('exit', () => {
      clearTimeout(force);
      resolve();
    });
    child.kill(killSignal);
  });
}

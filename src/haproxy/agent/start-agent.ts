/**
 * Composes the agent: optional HAProxy child (master-worker, bootstrap config when none
 * exists), socket clients, recovery of an interrupted apply, and the HTTP API.
 */
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { isAbsolute, resolve } from 'node:path';
import { describeError, InvalidArgumentError } from '../../core/errors.js';
import { haproxyVersion } from '../haproxy-binary.js';
import { MasterCliClient } from '../runtime/master-cli-client.js';
import { RuntimeApiClient } from '../runtime/runtime-api-client.js';
import { parseSocketAddress } from '../runtime/socket-address.js';
import { AgentApplier } from './agent-applier.js';
import { silentAgentLogger, type AgentLogger } from './agent-logger.js';
import { createAgentMetrics, type AgentMetrics } from './agent-metrics.js';
import { createAgentServer } from './agent-server.js';
import {
  attachRunningHaproxy,
  ensureBootstrapConfig,
  startHaproxy,
  type HaproxyProcess,
} from './haproxy-process.js';

/** Options of {@link startAgent}. */
export interface AgentOptions {
  /** Directory holding haproxy.cfg, maps, certificates; HAProxy runs with `-C` set to it. */
  readonly baseDir: string;
  readonly listenHost: string;
  /** 0 picks a free port (tests). */
  readonly listenPort: number;
  /** The bearer token every `/v1` call must carry. */
  readonly token: string;
  /** Master CLI socket (unix path, or host:port when attaching). */
  readonly masterSocket: string;
  /** Worker runtime API socket (`stats socket … level admin`). */
  readonly statsSocket: string;
  readonly haproxyBin: string;
  /** Run HAProxy as a child process (and stop it on shutdown). */
  readonly startHaproxy: boolean;
  readonly reloadIntervalMinMs: number;
  readonly tls?: { readonly cert: Buffer; readonly key: Buffer };
  readonly maxBodyBytes?: number;
  readonly logger?: AgentLogger;
  /** TEST ONLY: fault injection point (see AgentApplierOptions.fault). */
  readonly fault?: string | undefined;
}

/** A running agent. */
export interface RunningAgent {
  /** Base URL, e.g. `http://127.0.0.1:5555`. */
  readonly url: string;
  readonly port: number;
  readonly metrics: AgentMetrics;
  readonly applier: AgentApplier;
  /** The HAProxy child, when the agent started it. */
  readonly haproxy: HaproxyProcess | undefined;
  /** Stops the HTTP server, then HAProxy if the agent started it. */
  stop(): Promise<void>;
}

/** Starts the agent and resolves once it listens. */
export async function startAgent(opts: AgentOptions, signal?: AbortSignal): Promise<RunningAgent> {
  if (!isAbsolute(opts.baseDir)) throw new InvalidArgumentError('baseDir must be absolute');
  if (!opts.token) throw new InvalidArgumentError('the agent token is empty');
  const baseDir = resolve(opts.baseDir);
  const logger = opts.logger ?? silentAgentLogger;
  const metrics = createAgentMetrics();
  let haproxy: HaproxyProcess | undefined;
  if (opts.startHaproxy) {
    haproxy = await attachRunningHaproxy(opts.masterSocket, signal);
    if (haproxy)
      logger.warn({ pid: haproxy.pid }, 'a HAProxy master already answers: attaching to it');
  }
  if (opts.startHaproxy && !haproxy) {
    if (await ensureBootstrapConfig(baseDir, opts.statsSocket)) {
      logger.info({ baseDir }, 'no haproxy.cfg: wrote the bootstrap configuration');
    }
    haproxy = await startHaproxy({
      haproxyBin: opts.haproxyBin,
      baseDir,
      masterSocket: opts.masterSocket,
      onOutput: (line) => {
        logger.info({ haproxy: line }, 'haproxy');
      },
      ...(signal ? { signal } : {}),
    });
    logger.info({ pid: haproxy.pid }, 'haproxy started');
  }
  try {
    const master = new MasterCliClient(parseSocketAddress(opts.masterSocket));
    const runtime = new RuntimeApiClient(parseSocketAddress(opts.statsSocket));
    const version = await haproxyVersion(opts.haproxyBin, signal);
    const applier = new AgentApplier({
      baseDir,
      haproxyBin: opts.haproxyBin,
      runtime,
      master,
      metrics,
      logger,
      reloadIntervalMinMs: opts.reloadIntervalMinMs,
      fault: opts.fault,
    });
    await applier.init(signal);
    const stopping = new AbortController();
    const server: Server = createAgentServer({
      applier,
      metrics,
      logger,
      token: opts.token,
      haproxyVersion: version,
      signal: stopping.signal,
      ...(opts.maxBodyBytes !== undefined ? { maxBodyBytes: opts.maxBodyBytes } : {}),
      ...(opts.tls ? { tls: opts.tls } : {}),
    });
    await new Promise<void>((res, rej) => {
      server.once('error', rej);
      server.listen(opts.listenPort, opts.listenHost, () => {
        server.off('error', rej);
        res();
      });
    });
    const port = (server.address() as AddressInfo).port;
    const host = opts.listenHost.includes(':') ? `[${opts.listenHost}]` : opts.listenHost;
    let stopped = false;
    return {
      url: `${opts.tls ? 'https' : 'http'}://${host}:${port}`,
      port,
      metrics,
      applier,
      haproxy,
      async stop() {
        if (stopped) return;
        stopped = true;
        stopping.abort(new Error('agent stopping'));
        await new Promise<void>((res) => {
          server.close(() => {
            res();
          });
          server.closeAllConnections();
        });
        await haproxy?.stop();
      },
    };
  } catch (err) {
    logger.error({ err: describeError(err) }, 'agent start failed');
    await haproxy?.stop();
    throw err;
  }
}

/** `haptic agent`: the data-plane agent beside each HAProxy (HTTP apply API, verified reloads). */
import { readFile } from 'node:fs/promises';
import { resolve } from 'node:path';
import type { Command } from 'commander';
import { pino } from 'pino';
import { abortPromise } from '../../core/abort.js';
import { InvalidArgumentError } from '../../core/errors.js';
import { resolveHaproxyBinary } from '../../haproxy/haproxy-binary.js';
import { startAgent } from '../../haproxy/agent/start-agent.js';
import type { CommandContext } from '../command-context.js';

interface AgentCliOptions {
  baseDir: string;
  listen: string;
  tokenFile: string;
  masterSocket: string;
  statsSocket: string;
  startHaproxy?: boolean;
  haproxyBin?: string;
  reloadIntervalMin: string;
  tlsCert?: string;
  tlsKey?: string;
  maxBodySize: string;
}

/** Parses `250ms`, `5s`, `1m` or a bare number of milliseconds. */
export function parseDurationMs(text: string): number {
  const m = /^(\d+(?:\.\d+)?)(ms|s|m)?$/.exec(text.trim());
  if (!m) throw new InvalidArgumentError(`"${text}" is not a duration (e.g. 500ms, 5s, 1m)`);
  const n = Number(m[1]);
  return m[2] === 's' ? n * 1000 : m[2] === 'm' ? n * 60_000 : n;
}

/** Parses `HOST:PORT` (IPv6 as `[::1]:PORT`; `:PORT` listens on all addresses). */
export function parseListen(text: string): { host: string; port: number } {
  const m = /^(?:\[([^\]]+)\]|([^:]*)):(\d{1,5})$/.exec(text.trim());
  const port = Number(m?.[3]);
  if (!m || port > 65535) throw new InvalidArgumentError(`--listen "${text}" is not HOST:PORT`);
  return { host: m[1] ?? (m[2] || '0.0.0.0'), port };
}

/** Registers `haptic agent`. */
export function registerAgentCommand(program: Command, ctx: CommandContext): void {
  program
    .command('agent')
    .description(
      'run the agent beside one HAProxy: atomic applies, runtime API fast path, verified reloads',
    )
    .requiredOption(
      '--base-dir <dir>',
      'directory of haproxy.cfg, maps and certificates (HAProxy runs with -C <dir>)',
    )
    .requiredOption('--listen <host:port>', 'address of the HTTP API')
    .requiredOption('--token-file <file>', 'file holding the bearer token')
    .requiredOption('--master-socket <path>', 'master CLI socket (haproxy -S)')
    .requiredOption(
      '--stats-socket <path>',
      'worker runtime API socket (stats socket … level admin)',
    )
    .option(
      '--start-haproxy',
      'run HAProxy as a child in master-worker mode (bootstrap config when none exists)',
    )
    .option('--haproxy-bin <path>', 'haproxy executable (default: HAPROXY_BIN, PATH, sbin dirs)')
    .option('--reload-interval-min <duration>', 'minimum time between two reloads', '5s')
    .option('--tls-cert <file>', 'serve HTTPS with this certificate (PEM)')
    .option('--tls-key <file>', 'private key for --tls-cert (PEM)')
    .option('--max-body-size <bytes>', 'largest accepted apply body', String(64 * 1024 * 1024))
    .addHelpText(
      'after',
      '\nEnvironment: HAPTIC_AGENT_FAULT=after-rename is a TEST-ONLY fault hook that makes the agent\n' +
        'SIGKILL itself between renaming files into place and reloading. Never set it in production.\n',
    )
    .action(async (opts: AgentCliOptions) => {
      const logger = pino({ name: 'haptic-agent' }, pino.destination(2));
      const token = (await readFile(opts.tokenFile, 'utf8')).trim();
      if ((opts.tlsCert === undefined) !== (opts.tlsKey === undefined)) {
        throw new InvalidArgumentError('--tls-cert and --tls-key go together');
      }
      const tls =
        opts.tlsCert !== undefined && opts.tlsKey !== undefined
          ? { cert: await readFile(opts.tlsCert), key: await readFile(opts.tlsKey) }
          : undefined;
      const listen = parseListen(opts.listen);
      const maxBody = Number(opts.maxBodySize);
      if (!Number.isSafeInteger(maxBody) || maxBody <= 0) {
        throw new InvalidArgumentError('--max-body-size must be a positive integer');
      }
      const agent = await startAgent(
        {
          baseDir: resolve(opts.baseDir),
          listenHost: listen.host,
          listenPort: listen.port,
          token,
          masterSocket: opts.masterSocket,
          statsSocket: opts.statsSocket,
          haproxyBin: opts.haproxyBin ?? resolveHaproxyBinary(),
          startHaproxy: opts.startHaproxy === true,
          reloadIntervalMinMs: parseDurationMs(opts.reloadIntervalMin),
          maxBodyBytes: maxBody,
          logger,
          fault: process.env['HAPTIC_AGENT_FAULT'],
          ...(tls ? { tls } : {}),
        },
        ctx.signal,
      );
      logger.info({ url: agent.url }, 'agent listening');
      ctx.io.out(`agent listening on ${agent.url}\n`);
      await abortPromise(ctx.signal);
      logger.info({}, 'agent stopping');
      await agent.stop();
    });
}

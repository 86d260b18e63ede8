/**
 * `npm run bench -- agent [runtimeApplies] [reloadApplies]`: apply-to-verified time of the agent
 * on a config with 3,000 backends, for runtime-only applies (one server address changes) and
 * for reload applies (a frontend line changes). Runs a real HAProxy on loopback in a temp dir.
 */
import { createHash } from 'node:crypto';
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startAgent } from '../src/haproxy/agent/start-agent.js';
import { freePort } from '../src/testing/free-port.js';
import { ensureHaproxy } from '../src/testing/haproxy-install.js';

const BACKENDS = 3000;
const TOKEN = 'bench-token';

function percentile(sorted: number[], p: number): number {
  const i = Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1));
  return sorted[i] ?? NaN;
}

function entry(path: string, content: string): { path: string; digest: string; content: string } {
  return {
    path,
    digest: createHash('sha256').update(content).digest('hex'),
    content: Buffer.from(content).toString('base64'),
  };
}

export default async function bench(args: string[], signal: AbortSignal): Promise<void> {
  const runtimeN = Number(args[0] ?? 50);
  const reloadN = Number(args[1] ?? 20);
  const dir = mkdtempSync(join(tmpdir(), 'haptic-bench-agent-'));
  const baseDir = join(dir, 'base');
  mkdirSync(baseDir);
  const statsSocket = join(dir, 'admin.sock');
  const httpPort = await freePort();
  const config = (port0: number, header: number): string => {
    const lines = [
      'global',
      '    master-worker',
      `    stats socket ${statsSocket} level admin expose-fd listeners`,
      '    hard-stop-after 5s',
      'defaults',
      '    mode http',
      '    option idle-close-on-response',
      '    timeout connect 1s',
      '    timeout client 10s',
      '    timeout server 10s',
      'frontend fe',
      `    bind 127.0.0.1:${httpPort}`,
      `    http-response set-header X-Bench ${header}`,
      '    http-request set-var(txn.be) req.hdr(host),field(1,:),lower,map_str(maps/hosts.map)',
      '    use_backend %[var(txn.be)] if { var(txn.be) -m found }',
      '    default_backend be_0000',
    ];
    for (let i = 0; i < BACKENDS; i++) {
      const name = `be_${String(i).padStart(4, '0')}`;
      const port = i === 0 ? port0 : 20000 + (i % 10000);
      lines.push(
        `backend ${name}`,
        '    balance roundrobin',
        `    server s1 127.0.0.1:${port} id 1`,
      );
    }
    return `${lines.join('\n')}\n`;
  };
  const hostsMap =
    Array.from({ length: BACKENDS }, (_, i) => `h${i}.bench be_${String(i).padStart(4, '0')}`).join(
      '\n',
    ) + '\n';

  const mapEntry = entry('maps/hosts.map', hostsMap);
  const agent = await startAgent(
    {
      baseDir,
      listenHost: '127.0.0.1',
      listenPort: 0,
      token: TOKEN,
      masterSocket: join(dir, 'master.sock'),
      statsSocket,
      haproxyBin: ensureHaproxy(),
      startHaproxy: true,
      reloadIntervalMinMs: 0,
    },
    signal,
  );
  let plan = 0;
  const apply = async (cfg: string): Promise<{ ms: number; mode: string }> => {
    plan++;
    const body = JSON.stringify({
      planId: `b${plan}`,
      leaderEpoch: 1,
      // The map never changes: after the first apply only its digest travels, as the controller does.
      files: [
        entry('haproxy.cfg', cfg),
        plan === 1 ? mapEntry : { path: mapEntry.path, digest: mapEntry.digest },
      ],
    });
    const t0 = performance.now();
    const res = await fetch(`${agent.url}/v1/apply`, {
      method: 'POST',
      headers: { authorization: `Bearer ${TOKEN}`, 'content-type': 'application/json' },
      body,
      signal,
    });
    const json = (await res.json()) as { mode?: string; reason?: string; message?: string };
    const ms = performance.now() - t0;
    if (res.status !== 200) throw new Error(`apply failed: ${res.status} ${JSON.stringify(json)}`);
    return { ms, mode: json.mode ?? '?' };
  };
  try {
    const cfgBytes = Buffer.byteLength(config(19000, 0));
    await apply(config(19000, 0));
    const runtime: number[] = [];
    const modes = new Map<string, number>();
    for (let i = 1; i <= runtimeN; i++) {
      const r = await apply(config(19000 + (i % 2), 0));
      runtime.push(r.ms);
      modes.set(`runtime-series:${r.mode}`, (modes.get(`runtime-series:${r.mode}`) ?? 0) + 1);
    }
    const reload: number[] = [];
    for (let i = 1; i <= reloadN; i++) {
      const r = await apply(config(19000 + (runtimeN % 2), i));
      reload.push(r.ms);
      modes.set(`reload-series:${r.mode}`, (modes.get(`reload-series:${r.mode}`) ?? 0) + 1);
    }
    const report = (name: string, xs: number[]): void => {
      const s = [...xs].sort((a, b) => a - b);
      process.stdout.write(
        `${name.padEnd(22)} n=${String(s.length).padStart(3)}  p50=${percentile(s, 50).toFixed(1)} ms  p99=${percentile(s, 99).toFixed(1)} ms  max=${(s.at(-1) ?? NaN).toFixed(1)} ms\n`,
      );
    };
    process.stdout.write(
      `agent apply-to-verified, ${BACKENDS} backends, haproxy.cfg ${(cfgBytes / 1024).toFixed(0)} KiB, ${BACKENDS}-entry map\n`,
    );
    report('runtime (server addr)', runtime);
    report('reload (frontend)', reload);
    process.stdout.write(`modes: ${[...modes].map(([k, v]) => `${k}=${v}`).join(' ')}\n`);
  } finally {
    await agent.stop();
    rmSync(dir, { recursive: true, force: true });
  }
}

/**
 * Planner cost on a large configuration: `npm run bench -- plan [backends] [rounds]`.
 * Builds a config with N backends (3 servers each, one use_backend rule per backend, a 3,000-entry
 * map) and times planChange for: nothing changed, one server address, every backend's first
 * server, 100 map entries, and one frontend line (a reload). Prints p50 and p99 per scenario.
 */
import { throwIfAborted } from '../src/core/abort.js';
import type { FileSet } from '../src/haproxy/plan/file-set.js';
import { planChange } from '../src/haproxy/plan/plan-change.js';

function cfg(backends: number, shiftAll: boolean, moveOne: boolean, bind: string): string {
  const lines = [
    'global',
    '    maxconn 4000',
    'defaults base',
    '    mode http',
    '    timeout client 5s',
    '    timeout server 5s',
    '    timeout connect 1s',
    'frontend fe from base',
    `    bind ${bind}`,
    '    http-request set-var(txn.r) req.hdr(host),map_str(maps/hosts.map)',
  ];
  for (let i = 0; i < backends; i++) {
    lines.push(`    use_backend be_${String(i)} if { hdr(host) -i h${String(i)}.example.com }`);
  }
  for (let i = 0; i < backends; i++) {
    lines.push(`backend be_${String(i)} from base`, '    balance roundrobin');
    for (let j = 0; j < 3; j++) {
      const last = (shiftAll && j === 0) || (moveOne && i === 7 && j === 0) ? 9 : 1;
      lines.push(
        `    server s${String(j)} 10.${String(i % 250)}.${String(j)}.${String(last)}:80 id ${String(j + 1)}`,
      );
    }
  }
  return `${lines.join('\n')}\n`;
}

function map(entries: number, changed: number): string {
  const out: string[] = [];
  for (let i = 0; i < entries; i++)
    out.push(`h${String(i)}.example.com r${String(i < changed ? i + 1_000_000 : i)}`);
  return `${out.join('\n')}\n`;
}

function set(cfgText: string, mapText: string): FileSet {
  return {
    files: new Map([
      ['haproxy.cfg', cfgText],
      ['maps/hosts.map', mapText],
    ]),
  };
}

function percentile(sorted: readonly number[], p: number): number {
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] ?? 0;
}

export default async function planBench(args: string[], signal: AbortSignal): Promise<void> {
  const backends = Number(args[0] ?? 3000);
  const rounds = Number(args[1] ?? 30);
  const base = cfg(backends, false, false, ':80');
  const current = set(base, map(3000, 0));
  const scenarios: [string, FileSet][] = [
    ['unchanged', set(base, map(3000, 0))],
    ['one server address', set(cfg(backends, false, true, ':80'), map(3000, 0))],
    ['every backend: first server address', set(cfg(backends, true, false, ':80'), map(3000, 0))],
    ['100 map entries changed', set(base, map(3000, 100))],
    ['frontend bind changed (reload)', set(cfg(backends, false, false, ':81'), map(3000, 0))],
  ];
  process.stdout.write(`planChange, ${String(backends)} backends, ${String(rounds)} rounds each\n`);
  for (const [name, desired] of scenarios) {
    const times: number[] = [];
    let summary = '';
    for (let r = 0; r < rounds; r++) {
      throwIfAborted(signal, 'plan bench');
      // As in the agent, a changed configuration is new text every time (the current one was the
      // previous desired one): a trailing comment keeps the planner from reusing its parse.
      const cfgText = String(desired.files.get('haproxy.cfg'));
      const changedCfg = cfgText !== current.files.get('haproxy.cfg');
      const fresh: FileSet = changedCfg
        ? {
            files: new Map([...desired.files, ['haproxy.cfg', `${cfgText}# round ${String(r)}\n`]]),
          }
        : desired;
      const t = performance.now();
      const d = planChange(current, fresh);
      times.push(performance.now() - t);
      summary = `${d.mode}${d.mode === 'runtime' ? ` (${String(d.ops.length)} ops)` : ''}`;
      await Promise.resolve();
    }
    times.sort((a, b) => a - b);
    process.stdout.write(
      `  ${name.padEnd(40)} ${summary.padEnd(20)} p50 ${percentile(times, 50).toFixed(1)} ms  p99 ${percentile(times, 99).toFixed(1)} ms\n`,
    );
  }
}

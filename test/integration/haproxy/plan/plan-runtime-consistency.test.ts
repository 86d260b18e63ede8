// Proves the planner's central promise on real HAProxy 2.6: after the runtime ops of a plan ran
// on a process started from the current files (none for `noop`), that process is in the same
// state as a fresh HAProxy started from the desired files (servers, maps, ACLs, crt-lists,
// certificates, limits). Every runtime and noop golden case of test/golden/plan is replayed.
import assert from 'node:assert/strict';
import { spawn, type ChildProcess } from 'node:child_process';
import {
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  statSync,
  writeFileSync,
} from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { dirname, join, relative } from 'node:path';
import { after, describe, it } from 'node:test';

import { parseCfg } from '../../../../src/haproxy/plan/cfg-parser.js';
import { collectCfgReferences } from '../../../../src/haproxy/plan/cfg-references.js';
import { parseCrtList } from '../../../../src/haproxy/plan/crt-list-file.js';
import { planChange } from '../../../../src/haproxy/plan/plan-change.js';
import { executeRuntimeOps } from '../../../../src/haproxy/runtime/execute-runtime-ops.js';
import { RuntimeApiClient } from '../../../../src/haproxy/runtime/runtime-api-client.js';
import { ensureHaproxy } from '../../../../src/testing/haproxy-install.js';

const goldenRoot = new URL('../../../golden/plan/', import.meta.url).pathname;
const haproxyBin = ensureHaproxy();
const scratch = mkdtempSync(join(tmpdir(), 'plan-consistency-'));
const running = new Set<ChildProcess>();

after(async () => {
  for (const p of running) await stop(p);
  rmSync(scratch, { recursive: true, force: true });
});

function readTree(dir: string): Map<string, string> {
  const files = new Map<string, string>();
  const walk = (d: string): void => {
    if (!existsSync(d)) return;
    for (const name of readdirSync(d).sort()) {
      const p = join(d, name);
      const st = statSync(p);
      if (st.isDirectory()) walk(p);
      else if (st.isFile()) files.set(relative(dir, p), readFileSync(p, 'utf8'));
    }
  };
  walk(dir);
  return files;
}

/** Makes the tree hold exactly `files` (the admin socket, not a regular file, stays). */
function writeTree(dir: string, files: ReadonlyMap<string, string>): void {
  for (const path of readTree(dir).keys()) {
    if (!files.has(path)) rmSync(join(dir, path));
  }
  for (const [path, content] of files) {
    mkdirSync(dirname(join(dir, path)), { recursive: true });
    writeFileSync(join(dir, path), content);
  }
}

async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      server.close(() => {
        resolve(typeof address === 'object' && address !== null ? address.port : 0);
      });
    });
  });
}

async function stop(p: ChildProcess): Promise<void> {
  running.delete(p);
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

async function start(dir: string): Promise<{ proc: ChildProcess; client: RuntimeApiClient }> {
  const proc = spawn(haproxyBin, ['-db', '-f', 'haproxy.cfg', '-C', dir], {
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  running.add(proc);
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
  await stop(proc);
  throw new Error(`haproxy did not start in ${dir}: ${stderr}`);
}

const STAT_FIELDS = [
  'pxname',
  'svname',
  'type',
  'sid',
  'addr',
  'status',
  'weight',
  'slim',
] as const;
const INFO_FIELDS = [
  'Maxconn',
  'ConnRateLimit',
  'SessRateLimit',
  'SslRateLimit',
  'CompressBpsRateLim',
];

/** A normalised runtime dump: what a client of this HAProxy can observe. */
async function dump(client: RuntimeApiClient, cfgText: string): Promise<Record<string, unknown>> {
  const out: Record<string, unknown> = {};
  const info = await client.command(['show', 'info']);
  out['info'] = info.split('\n').filter((l) => INFO_FIELDS.some((f) => l.startsWith(`${f}:`)));
  const stat = (await client.command(['show', 'stat'])).split('\n');
  const header = (stat[0] ?? '').replace(/^# /, '').split(',');
  out['stat'] = stat
    .slice(1)
    .filter((l) => l !== '')
    .map((l) => {
      const cells = l.split(',');
      // A backend's slim is its fullconn, derived from its frontends' maxconn at startup only;
      // it matters solely for minconn servers, and the planner reloads when those exist.
      if (cells[header.indexOf('svname')] === 'BACKEND') cells[header.indexOf('slim')] = '-';
      return STAT_FIELDS.map((f) => cells[header.indexOf(f)] ?? '').join(' ');
    })
    .sort();
  const refs = collectCfgReferences(parseCfg(cfgText), undefined).refs;
  const seen = new Set<string>();
  for (const ref of refs) {
    const key = `${ref.use} ${ref.name}`;
    if (seen.has(key)) continue;
    seen.add(key);
    if (ref.use === 'map' || ref.use === 'acl') {
      const shown = (await client.command(['show', ref.use, ref.name]))
        .split('\n')
        .filter((l) => l !== '');
      const entries = shown.map((l) => l.replace(/^0x[0-9a-f]+ /, ''));
      out[key] = ref.ordered ? entries : entries.sort();
    } else if (ref.use === 'crtlist') {
      const shown = (await client.command(['show', 'ssl', 'crt-list', ref.name]))
        .split('\n')
        .filter((l) => l !== '' && !l.startsWith('#'));
      out[key] = [shown[0], ...shown.slice(1).sort()];
      for (const line of parseCrtList(shown.join('\n'))) {
        const cert = await client.command(['show', 'ssl', 'cert', line.certPath]);
        out[`cert ${line.certPath}`] = cert.split('\n').filter((l) => /^(Serial|Subject):/.test(l));
      }
    } else if (ref.use === 'cafile') {
      const ca = await client.command(['show', 'ssl', 'ca-file', ref.name]);
      out[key] = ca.split('\n').filter((l) => /Serial|Subject:/.test(l));
    }
  }
  return out;
}

const cases = readdirSync(goldenRoot)
  .filter((name) => {
    const expected = join(goldenRoot, name, 'expected.json');
    if (!existsSync(expected)) return false;
    const text = readFileSync(expected, 'utf8');
    // Servers with health checks to unreachable addresses change state on their own timing.
    return (
      ['runtime', 'noop'].includes((JSON.parse(text) as { mode: string }).mode) &&
      !text.includes('"check": true')
    );
  })
  .sort();

describe('runtime and noop plans reproduce the state of a fresh start from the desired files', () => {
  it('has runtime and noop golden cases to replay', () => {
    assert.ok(cases.length >= 20, `only ${String(cases.length)} cases`);
  });

  for (const name of cases) {
    it(`${name}: runtime state after the ops equals the state after a restart`, async () => {
      const ports = new Map<string, string>();
      const portFor = async (text: string): Promise<string> => {
        for (const m of text.matchAll(/127\.0\.0\.1:(18\d{3})/g)) {
          const port = m[1] ?? '';
          if (!ports.has(port)) ports.set(port, String(await freePort()));
        }
        return text.replace(
          /127\.0\.0\.1:(18\d{3})/g,
          (_all, p: string) => `127.0.0.1:${ports.get(p) ?? p}`,
        );
      };
      const current = readTree(join(goldenRoot, name, 'current'));
      const desired = readTree(join(goldenRoot, name, 'desired'));
      current.set('haproxy.cfg', await portFor(current.get('haproxy.cfg') ?? ''));
      desired.set('haproxy.cfg', await portFor(desired.get('haproxy.cfg') ?? ''));
      const options = existsSync(join(goldenRoot, name, 'options.json'))
        ? (JSON.parse(readFileSync(join(goldenRoot, name, 'options.json'), 'utf8')) as object)
        : {};
      const decision = planChange({ files: current }, { files: desired }, options);
      assert.notEqual(decision.mode, 'reload');
      const ops = decision.mode === 'runtime' ? decision.ops : [];

      const dir = join(scratch, name);
      writeTree(dir, current);
      const first = await start(dir);
      let runtimeState: Record<string, unknown>;
      try {
        writeTree(dir, desired);
        await executeRuntimeOps(first.client, ops, { drainTimeoutMs: 2_000 });
        runtimeState = await dump(first.client, desired.get('haproxy.cfg') ?? '');
      } finally {
        await stop(first.proc);
      }
      const second = await start(dir);
      try {
        const freshState = await dump(second.client, desired.get('haproxy.cfg') ?? '');
        assert.deepEqual(runtimeState, freshState);
      } finally {
        await stop(second.proc);
      }
    });
  }
});

// A seeded random walk of endpoint and map churn on one long-running HAProxy 2.6: every step is
// planned from the previous files, applied through the runtime API only (never reloaded), and
// the running state must equal that of a fresh HAProxy started from the step's files. This
// catches drift that only builds up across several runtime applies (ids reused after deletes,
// re-added servers, map order, crt-list entries and certificates coming and going).
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';

import { planChange } from '../../../../src/haproxy/plan/plan-change.js';
import { executeRuntimeOps } from '../../../../src/haproxy/runtime/execute-runtime-ops.js';
import { dumpRuntimeState, writeTree } from './plan-haproxy-fixture.js';
import { freePort, ScratchHaproxy } from '../support/haproxy-fixture.js';

const STEPS = 15;

interface Server {
  ip: string;
  port: number;
  id: number;
  weight: number;
  disabled: boolean;
  maxconn: number;
}

interface State {
  backends: Map<string, Map<string, Server>>;
  hosts: Map<string, string>;
  regex: [string, string][];
  blocked: Set<string>;
  /** crt-list entries after the fixed default certificate, in file order. */
  sni: string[];
  /** True when shop.example.com is served by its rotated certificate. */
  shopRotated: boolean;
  next: number;
}

const fixtureCert = (dir: string, name: string): string =>
  readFileSync(
    new URL(`../../../golden/plan/${dir}/desired/certs/${name}.pem`, import.meta.url),
    'utf8',
  );
const CERTS: Readonly<Record<string, string>> = {
  default: fixtureCert('runtime-crtlist-insert-in-middle-distinct-names', 'default'),
  'a.example.com': fixtureCert('runtime-crtlist-insert-in-middle-distinct-names', 'a.example.com'),
  'b.example.com': fixtureCert('runtime-crtlist-insert-in-middle-distinct-names', 'b.example.com'),
  'new.example.com': fixtureCert('runtime-certificate-new-sni', 'new.example.com'),
  'shop.example.com': fixtureCert(
    'runtime-crtlist-insert-in-middle-distinct-names',
    'shop.example.com',
  ),
};
const SHOP_ROTATED = fixtureCert('runtime-certificate-rotated', 'shop.example.com');

/** mulberry32: a small deterministic PRNG so a failure can be replayed. */
function prng(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

function render(state: State, port: number, tlsPort: number): Map<string, string> {
  const lines = [
    'global',
    '    stats socket unix@admin.sock level admin',
    'defaults',
    '    mode http',
    '    timeout client 5s',
    '    timeout server 5s',
    '    timeout connect 1s',
    'frontend fe',
    `    bind 127.0.0.1:${String(port)}`,
    `    bind 127.0.0.1:${String(tlsPort)} ssl crt-list crt-lists/fe.txt`,
    '    http-request deny if { src -f maps/blocked.acl }',
    '    http-request set-var(txn.be) req.hdr(host),lower,map_str(maps/hosts.map)',
    '    http-request set-var(txn.be) path,map_reg(maps/regex.map) if !{ var(txn.be) -m found }',
    '    use_backend %[var(txn.be)]',
  ];
  const balance: Record<string, string> = {
    be_rr: 'roundrobin',
    be_rand: 'random',
    be_lc: 'leastconn',
  };
  for (const [name, servers] of state.backends) {
    lines.push(`backend ${name}`, `    balance ${balance[name] ?? 'roundrobin'}`);
    for (const [s, v] of servers) {
      const extra = `${v.maxconn > 0 ? ` maxconn ${String(v.maxconn)}` : ''}${v.disabled ? ' disabled' : ''}`;
      lines.push(
        `    server ${s} ${v.ip}:${String(v.port)} id ${String(v.id)} weight ${String(v.weight)}${extra}`,
      );
    }
  }
  const certs: [string, string][] = ['default', ...state.sni].map((n) => [
    `certs/${n}.pem`,
    n === 'shop.example.com' && state.shopRotated ? SHOP_ROTATED : (CERTS[n] ?? ''),
  ]);
  return new Map([
    ...certs,
    ['crt-lists/fe.txt', ['default', ...state.sni].map((n) => `certs/${n}.pem\n`).join('')],
    ['haproxy.cfg', `${lines.join('\n')}\n`],
    ['maps/hosts.map', [...state.hosts].map(([k, v]) => `${k} ${v}\n`).join('')],
    ['maps/regex.map', state.regex.map(([k, v]) => `${k} ${v}\n`).join('')],
    ['maps/blocked.acl', [...state.blocked].map((p) => `${p}\n`).join('')],
  ]);
}

function clone(state: State): State {
  return {
    backends: new Map(
      [...state.backends].map(([b, s]) => [b, new Map([...s].map(([n, v]) => [n, { ...v }]))]),
    ),
    hosts: new Map(state.hosts),
    regex: state.regex.map(([k, v]) => [k, v]),
    blocked: new Set(state.blocked),
    sni: [...state.sni],
    shopRotated: state.shopRotated,
    next: state.next,
  };
}

function mutate(prev: State, rnd: () => number): State {
  const s = clone(prev);
  const pick = <T>(items: readonly T[]): T | undefined => items[Math.floor(rnd() * items.length)];
  const ip = (): string =>
    `10.${String(1 + Math.floor(rnd() * 9))}.${String(Math.floor(rnd() * 250))}.${String(1 + Math.floor(rnd() * 250))}`;
  for (const servers of s.backends.values()) {
    if (rnd() < 0.5 && servers.size > 0) servers.delete(pick([...servers.keys()]) ?? '');
    if (rnd() < 0.6) {
      const used = new Set([...servers.values()].map((v) => v.id));
      let id = 1;
      while (used.has(id)) id++;
      servers.set(`ep-${String(s.next++)}`, {
        ip: ip(),
        port: 8000 + Math.floor(rnd() * 100),
        id,
        weight: 1,
        disabled: false,
        maxconn: 0,
      });
    }
    for (const v of servers.values()) {
      const r = rnd();
      if (r < 0.15) v.weight = Math.floor(rnd() * 20);
      else if (r < 0.25) v.disabled = !v.disabled;
      else if (r < 0.35) v.ip = ip();
      else if (r < 0.4) v.port = 8000 + Math.floor(rnd() * 100);
      else if (r < 0.45) v.maxconn = Math.floor(rnd() * 50);
    }
  }
  const backends = [...s.backends.keys()];
  for (let i = 0; i < 3; i++) {
    const r = rnd();
    const host = `h${String(Math.floor(rnd() * 12))}.example.com`;
    if (r < 0.6) s.hosts.set(host, pick(backends) ?? 'be_rr');
    else s.hosts.delete(host);
  }
  const r = rnd();
  const entry: [string, string] = [`^/r${String(s.next++)}/[0-9]+$`, pick(backends) ?? 'be_rr'];
  if (r < 0.4) s.regex.push(entry);
  else if (r < 0.6) s.regex.unshift(entry);
  else if (r < 0.8 && s.regex.length > 0) s.regex.splice(Math.floor(rnd() * s.regex.length), 1);
  const absent = Object.keys(CERTS).filter((n) => n !== 'default' && !s.sni.includes(n));
  const t = rnd();
  if (t < 0.35 && absent.length > 0) {
    // Insert anywhere: names are distinct, so the order HAProxy ends up with does not matter.
    s.sni.splice(Math.floor(rnd() * (s.sni.length + 1)), 0, pick(absent) ?? 'a.example.com');
  } else if (t < 0.6 && s.sni.length > 0) {
    s.sni.splice(Math.floor(rnd() * s.sni.length), 1);
  } else if (t < 0.8) {
    s.shopRotated = !s.shopRotated;
  }
  const addr = `192.0.2.${String(Math.floor(rnd() * 8))}`;
  if (s.blocked.has(addr)) s.blocked.delete(addr);
  else s.blocked.add(addr);
  return s;
}

const fixture = new ScratchHaproxy();
after(() => fixture.cleanup());

describe('a random walk of runtime-only applies on one HAProxy', () => {
  for (const seed of [6, 1, 4]) {
    it(`stays equal to a fresh start after each of ${String(STEPS)} steps (seed ${String(seed)})`, async () => {
      const rnd = prng(seed);
      let state: State = {
        backends: new Map([
          ['be_rr', new Map()],
          ['be_rand', new Map()],
          ['be_lc', new Map()],
        ]),
        hosts: new Map(),
        regex: [],
        blocked: new Set(),
        sni: [],
        shopRotated: false,
        next: 1,
      };
      const walkPort = await freePort();
      const walkTls = await freePort();
      const freshPort = await freePort();
      const freshTls = await freePort();
      const walkDir = join(fixture.scratch, 'walk');
      const freshDir = join(fixture.scratch, 'fresh');
      let files = render(state, walkPort, walkTls);
      writeTree(walkDir, files);
      const walker = await fixture.start(walkDir);
      let opsRun = 0;
      try {
        for (let step = 1; step <= STEPS; step++) {
          state = mutate(state, rnd);
          const desired = render(state, walkPort, walkTls);
          const decision = planChange({ files }, { files: desired });
          assert.notEqual(
            decision.mode,
            'reload',
            `step ${String(step)}: ${decision.reasons.join('; ')}`,
          );
          writeTree(walkDir, desired);
          const ops = decision.mode === 'runtime' ? decision.ops : [];
          opsRun += ops.length;
          await executeRuntimeOps(walker.client, ops, { drainTimeoutMs: 2_000 });
          files = desired;
          const walked = await dumpRuntimeState(walker.client, desired.get('haproxy.cfg') ?? '');
          writeTree(freshDir, render(state, freshPort, freshTls));
          const fresh = await fixture.start(freshDir);
          try {
            const expected = await dumpRuntimeState(fresh.client, desired.get('haproxy.cfg') ?? '');
            assert.deepEqual(walked, expected, `step ${String(step)}`);
          } finally {
            await fixture.stop(fresh.proc);
          }
        }
      } finally {
        await fixture.stop(walker.proc);
      }
      assert.ok(opsRun > STEPS * 3, `only ${String(opsRun)} ops ran: the walk changed too little`);
    });
  }
});

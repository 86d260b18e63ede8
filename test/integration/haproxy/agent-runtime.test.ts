import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync } from 'node:fs';
import { request } from 'node:https';
import { join } from 'node:path';
import type { RunningAgent } from '../../../src/haproxy/agent/start-agent.js';
import { RuntimeApiClient } from '../../../src/haproxy/runtime/runtime-api-client.js';
import { parseSocketAddress } from '../../../src/haproxy/runtime/socket-address.js';
import {
  call,
  freePort,
  globalSection,
  httpGet,
  presentedCn,
  selfSignedPem,
  TestEnv,
  withContent,
} from './support/haproxy-fixture.js';

function httpsGet(port: number, servername: string): Promise<string> {
  return new Promise((resolve, reject) => {
    const req = request(
      { host: '127.0.0.1', port, path: '/', servername, rejectUnauthorized: false, agent: false },
      (res) => {
        let body = '';
        res.setEncoding('utf8');
        res.on('data', (d: string) => (body += d));
        res.on('end', () => {
          resolve(body);
        });
      },
    );
    req.on('error', reject);
    req.end();
  });
}

describe('agent applies: runtime fast path, verified reloads, relative paths in a temp base dir', () => {
  const env = new TestEnv();
  let agent: RunningAgent;
  let runtime: RuntimeApiClient;
  let ports: Record<string, number>;
  let httpPort: number;
  let tlsPort: number;
  let plan = 0;
  const files: Record<string, string> = {};
  const pem: Record<string, string> = {};

  const cfg = (o: { s1: string; pool: string[]; header?: string }): string =>
    globalSection(env.statsSocket) +
    `frontend fe\n    bind 127.0.0.1:${httpPort}\n` +
    `    http-request set-var(txn.be) req.hdr(host),field(1,:),lower,map_str(maps/hosts.map)\n` +
    (o.header ? `    http-response set-header X-Frontend ${o.header}\n` : '') +
    `    use_backend %[var(txn.be)] if { var(txn.be) -m found }\n    default_backend be_main\n` +
    `frontend fe_tls\n    bind 127.0.0.1:${tlsPort} ssl crt-list crt-lists/tls.txt\n` +
    `    http-request return status 200 content-type text/plain file files/hello.txt\n` +
    `backend be_main\n    balance roundrobin\n    server s1 127.0.0.1:${ports[o.s1]} id 1\n` +
    `backend be_pool\n    balance roundrobin\n` +
    o.pool.map((name, i) => `    server ${name} 127.0.0.1:${ports[name]} id ${i + 1}\n`).join('');

  /** Sends the whole current `files` record as plan p<n>. */
  async function applyFiles(mode?: 'reload', deletes: string[] = []): Promise<any> {
    plan++;
    const res = await call(agent, 'POST', '/v1/apply', {
      planId: `p${plan}`,
      ...(plan > 1 ? { expectedPrevPlanId: `p${plan - 1}` } : {}),
      leaderEpoch: 1,
      files: Object.entries(files).map(([p, c]) => withContent(p, c)),
      ...(deletes.length > 0 ? { deletes } : {}),
      ...(mode ? { mode } : {}),
    });
    assert.equal(res.status, 200, JSON.stringify(res.body));
    return res.body;
  }

  const reloads = async (): Promise<number> => (await env.master().showProc()).master.reloads;
  const served = async (host: string, n = 4): Promise<string[]> => {
    const seen = new Set<string>();
    for (let i = 0; i < n; i++) seen.add((await httpGet(httpPort, '/', host)).body.trim());
    return [...seen].sort();
  };
  const runtimeDump = async (): Promise<string> =>
    [
      await runtime.command(['show', 'map', 'maps/hosts.map']),
      await runtime.command(['show', 'servers', 'state', 'be_main']),
      await runtime.command(['show', 'servers', 'state', 'be_pool']),
      await runtime.command(['show', 'ssl', 'crt-list', 'crt-lists/tls.txt']),
      await presentedCn(tlsPort, 'default.test'),
      await presentedCn(tlsPort, 'new.test'),
    ]
      .join('\n')
      // Map entry addresses and server timers differ between processes; names, addresses and states must not.
      .replace(/^0x[0-9a-f]+ /gm, '')
      .split('\n')
      .map((l) => l.split(' ').slice(0, 7).join(' '))
      .sort()
      .join('\n');

  before(async () => {
    ports = await env.echoBackends(['a', 'b', 'c', 'd']);
    httpPort = await freePort();
    tlsPort = await freePort();
    pem['default'] = selfSignedPem(env.dir, 'default.test');
    Object.assign(files, {
      'maps/hosts.map': '',
      'certs/default.pem': pem['default'],
      'crt-lists/tls.txt': 'certs/default.pem\n',
      'files/hello.txt': 'hello from a general file\n',
    });
    files['haproxy.cfg'] = cfg({ s1: 'a', pool: ['c'] });
    agent = await env.startAgent();
    runtime = new RuntimeApiClient(parseSocketAddress(env.statsSocket));
    const first = await applyFiles();
    assert.equal(first.mode, 'reload');
  });
  after(() => env.cleanup());

  it('resolves a map, a certificate, a crt-list and a general file relative to the temp base dir', async () => {
    assert.deepEqual(await served('app.test'), ['backend=a']);
    assert.equal(await presentedCn(tlsPort, 'default.test'), 'default.test');
    assert.equal(await httpsGet(tlsPort, 'default.test'), 'hello from a general file\n');
  });

  it('changes a server address at runtime: no reload, traffic on the new backend', async () => {
    const before = await reloads();
    files['haproxy.cfg'] = cfg({ s1: 'b', pool: ['c'] });
    const res = await applyFiles();
    assert.equal(res.mode, 'runtime', JSON.stringify(res));
    assert.equal(await reloads(), before);
    assert.deepEqual(await served('app.test'), ['backend=b']);
  });

  it('adds servers and a map entry at runtime', async () => {
    const before = await reloads();
    files['haproxy.cfg'] = cfg({ s1: 'b', pool: ['c', 'd'] });
    files['maps/hosts.map'] = 'pool.test be_pool\n';
    const res = await applyFiles();
    assert.equal(res.mode, 'runtime', JSON.stringify(res));
    assert.equal(await reloads(), before);
    assert.deepEqual(await served('pool.test'), ['backend=c', 'backend=d']);
  });

  it('removes a server at runtime', async () => {
    const before = await reloads();
    files['haproxy.cfg'] = cfg({ s1: 'b', pool: ['c'] });
    const res = await applyFiles();
    assert.equal(res.mode, 'runtime', JSON.stringify(res));
    assert.equal(await reloads(), before);
    assert.deepEqual(await served('pool.test'), ['backend=c']);
  });

  it('rotates a certificate and adds a crt-list entry at runtime', async () => {
    const before = await reloads();
    files['certs/default.pem'] = selfSignedPem(env.dir, 'rotated.test');
    files['certs/new.pem'] = selfSignedPem(env.dir, 'new.test');
    files['crt-lists/tls.txt'] = 'certs/default.pem\ncerts/new.pem new.test\n';
    const res = await applyFiles();
    assert.equal(res.mode, 'runtime', JSON.stringify(res));
    assert.equal(await reloads(), before);
    assert.equal(await presentedCn(tlsPort, 'default.test'), 'rotated.test');
    assert.equal(await presentedCn(tlsPort, 'new.test'), 'new.test');
  });

  it('keeps the runtime state (maps, servers, certificates) across a forced reload', async () => {
    const dumpBefore = await runtimeDump();
    const before = await reloads();
    const res = await applyFiles('reload');
    assert.equal(res.mode, 'reload');
    assert.equal(res.reload.verified, true);
    assert.equal(await reloads(), before + 1);
    assert.equal(await runtimeDump(), dumpBefore);
    assert.deepEqual(await served('app.test'), ['backend=b']);
    assert.deepEqual(await served('pool.test'), ['backend=c']);
  });

  it('removes a certificate and its crt-list entry at runtime and deletes the file', async () => {
    const before = await reloads();
    delete files['certs/new.pem'];
    files['crt-lists/tls.txt'] = 'certs/default.pem\n';
    const res = await applyFiles(undefined, ['certs/new.pem']);
    assert.equal(res.mode, 'runtime', JSON.stringify(res));
    assert.equal(await reloads(), before);
    assert.equal(existsSync(join(env.baseDir, 'certs/new.pem')), false);
    // Without its own certificate new.test now gets the default one.
    assert.equal(await presentedCn(tlsPort, 'new.test'), 'rotated.test');
    const state = await call(agent, 'GET', '/v1/state');
    assert.ok(!state.body.files.some((f: { path: string }) => f.path === 'certs/new.pem'));
  });

  it('reloads for a frontend change, verified, and serves the new frontend', async () => {
    const before = await reloads();
    files['haproxy.cfg'] = cfg({ s1: 'b', pool: ['c'], header: 'v2' });
    const res = await applyFiles();
    assert.equal(res.mode, 'reload', JSON.stringify(res));
    assert.equal(res.reload.verified, true);
    assert.equal(typeof res.reload.workerPid, 'number');
    assert.equal(await reloads(), before + 1);
    const res2 = await httpGet(httpPort, '/', 'app.test');
    assert.equal(res2.status, 200);
    assert.equal(res2.body, 'backend=b\n');
    assert.equal(res2.headers['x-frontend'], 'v2');
  });
});

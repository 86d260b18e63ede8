import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { executeRuntimeOps } from '../../../src/haproxy/runtime/execute-runtime-ops.js';
import { RuntimeApiClient } from '../../../src/haproxy/runtime/runtime-api-client.js';
import {
  ReloadFailedError,
  UnsafeRuntimeArgumentError,
} from '../../../src/haproxy/runtime/runtime-errors.js';
import { parseSocketAddress } from '../../../src/haproxy/runtime/socket-address.js';
import { freePort, globalSection, httpGet, TestEnv } from './support/haproxy-fixture.js';

describe('runtime API and master CLI clients against HAProxy 2.6', () => {
  const env = new TestEnv();
  let httpPort: number;
  let tcpPort: number;
  let cfg: string;
  let unix: RuntimeApiClient;
  let tcp: RuntimeApiClient;

  before(async () => {
    const ports = await env.echoBackends(['a']);
    httpPort = await freePort();
    tcpPort = await freePort();
    cfg =
      globalSection(env.statsSocket).replace(
        'defaults',
        `    stats socket ipv4@127.0.0.1:${tcpPort} level admin\ndefaults`,
      ) +
      `frontend fe\n    bind 127.0.0.1:${httpPort}\n` +
      `    http-request set-var(txn.v) req.hdr(host),map_str(maps/big.map)\n` +
      `    http-request return status 200 content-type text/plain lf-string "%[var(txn.v)]" if { var(txn.v) -m found }\n` +
      `    default_backend be\nbackend be\n    server a 127.0.0.1:${ports['a']} id 1\n`;
    env.write({ 'haproxy.cfg': cfg, 'maps/big.map': '' });
    await env.startHaproxy();
    unix = new RuntimeApiClient(parseSocketAddress(env.statsSocket));
    tcp = new RuntimeApiClient(parseSocketAddress(`127.0.0.1:${tcpPort}`));
  });
  after(() => env.cleanup());

  it('replaces a map with a payload far above 16 KiB in chunks, over TCP, and every entry arrives', async () => {
    const entries = Array.from({ length: 3000 }, (_, i): [string, string] => [
      `host-${i}.example.com`,
      `value-${i}`,
    ]);
    const payloadBytes = entries.reduce((n, [k, v]) => n + k.length + v.length + 2, 0);
    assert.ok(payloadBytes > 60_000);
    await executeRuntimeOps(tcp, [{ op: 'map.replace', map: 'maps/big.map', entries }]);
    const shown = await unix.command(['show', 'map', 'maps/big.map']);
    assert.equal(shown.split('\n').length, 3000);
    assert.equal((await httpGet(httpPort, '/', 'host-2999.example.com')).body, 'value-2999');
  });

  it('refuses an argument that would smuggle a second command, and HAProxy state stays as it was', async () => {
    await assert.rejects(
      unix.command(['del', 'map', 'maps/big.map', 'host-1.example.com;clear map maps/big.map']),
      UnsafeRuntimeArgumentError,
    );
    assert.equal((await unix.command(['show', 'map', 'maps/big.map'])).split('\n').length, 3000);
  });

  it('verifies a good reload through show proc: counter +1, new worker, no failure', async () => {
    const master = env.master();
    const before = await master.showProc();
    const r = await master.reloadVerified();
    assert.equal(r.reloads, before.master.reloads + 1);
    assert.ok(!before.workers.some((w) => w.pid === r.workerPid));
    assert.equal((await master.showProc()).master.failed, 0);
  });

  it('reports a reload of a broken config as failed while the old worker keeps serving', async () => {
    const master = env.master();
    env.write({ 'haproxy.cfg': `${cfg}    no-such-keyword\n` });
    const before = await master.showProc();
    await assert.rejects(master.reloadVerified(), ReloadFailedError);
    const after = await master.showProc();
    const pids = (t: typeof before): number[] => t.workers.map((w) => w.pid).sort();
    assert.deepEqual(pids(after), pids(before));
    assert.equal((await httpGet(httpPort, '/', 'app.test')).body, 'backend=a\n');
    env.write({ 'haproxy.cfg': cfg });
    await master.reloadVerified();
  });
});

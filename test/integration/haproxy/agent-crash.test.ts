import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { readFileTree, treeDigests } from '../../../src/haproxy/agent/file-tree.js';
import {
  call,
  freePort,
  httpGet,
  exited,
  proxyConfig,
  spawnAgent,
  TestEnv,
  withContent,
} from './support/haproxy-fixture.js';

describe('agent killed with SIGKILL between rename and reload', () => {
  const env = new TestEnv();
  let port: number;
  let httpPort: number;
  let oldFiles: string;
  let ports: Record<string, number>;

  before(async () => {
    ports = await env.echoBackends(['old', 'new']);
    httpPort = await freePort();
    port = await freePort();
  });
  after(() => env.cleanup());

  const config = (backend: string): string =>
    proxyConfig(env.statsSocket, httpPort, ports[backend] ?? 0, [
      'http-request set-var(txn.x) req.hdr(host),map_str(maps/hosts.map)',
    ]);

  // The apply the crash interrupts, sent again once the agent has restarted.
  const applyNew = () =>
    call({ url: `http://127.0.0.1:${port}` }, 'POST', '/v1/apply', {
      planId: 'p2',
      expectedPrevPlanId: 'p1',
      leaderEpoch: 1,
      files: [
        withContent('haproxy.cfg', config('new')),
        withContent('maps/hosts.map', 'new.test new\n'),
      ],
    });

  it('restarts with entirely the old files, the old plan id and HAProxy serving the old config', async () => {
    env.write({ 'haproxy.cfg': config('old'), 'maps/hosts.map': '' });
    await env.startHaproxy();

    const first = await spawnAgent(env, port);
    const p1 = await call({ url: `http://127.0.0.1:${port}` }, 'POST', '/v1/apply', {
      planId: 'p1',
      leaderEpoch: 1,
      files: [
        withContent('haproxy.cfg', config('old')),
        withContent('maps/hosts.map', 'old.test old\n'),
      ],
    });
    assert.equal(p1.status, 200, JSON.stringify(p1.body));
    const p1Tree = JSON.stringify(treeDigests(await readFileTree(env.baseDir)));
    oldFiles = p1Tree;
    first.kill('SIGTERM');
    await exited(first);

    const faulty = await spawnAgent(env, port, 'after-rename');
    await assert.rejects(applyNew());
    assert.equal(await exited(faulty), 'SIGKILL');
    // The crash left the new files in place: the restart has to undo them.
    assert.notEqual(JSON.stringify(treeDigests(await readFileTree(env.baseDir))), oldFiles);

    await spawnAgent(env, port);
    const state = await call({ url: `http://127.0.0.1:${port}` }, 'GET', '/v1/state');
    assert.equal(state.status, 200);
    assert.equal(state.body.planId, 'p1');
    assert.equal(state.body.baseline, 'known');
    assert.equal(JSON.stringify(state.body.files), oldFiles);
    assert.equal(JSON.stringify(treeDigests(await readFileTree(env.baseDir))), oldFiles);
    assert.equal((await httpGet(httpPort)).body, 'backend=old\n');

    const p2 = await applyNew();
    assert.equal(p2.status, 200, JSON.stringify(p2.body));
    assert.equal((await httpGet(httpPort)).body, 'backend=new\n');
  });
});

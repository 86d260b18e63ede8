import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { readFileTree, treeDigests } from '../../../src/haproxy/agent/file-tree.js';
import { startHaproxy } from '../../../src/haproxy/agent/haproxy-process.js';
import {
  call,
  freePort,
  globalSection,
  httpGet,
  exited,
  killOnExit,
  spawnAgent,
  startEchoBackends,
  TestEnv,
  withContent,
} from './agent-harness.js';

describe('agent killed with SIGKILL between rename and reload', () => {
  const env = new TestEnv();
  let port: number;
  let httpPort: number;
  let oldFiles: string;
  let ports: Record<string, number>;

  before(async () => {
    const backends = await startEchoBackends(['old', 'new']);
    env.defer(backends.close);
    ports = backends.ports;
    httpPort = await freePort();
    port = await freePort();
  });
  after(() => env.cleanup());

  const config = (backend: string): string =>
    `${globalSection(env.statsSocket)}frontend fe\n    bind 127.0.0.1:${httpPort}\n` +
    `    http-request set-var(txn.x) req.hdr(host),map_str(maps/hosts.map)\n    default_backend be\n` +
    `backend be\n    server s 127.0.0.1:${ports[backend]} id 1\n`;

  it('restarts with entirely the old files, the old plan id and HAProxy serving the old config', async () => {
    env.write({ 'haproxy.cfg': config('old'), 'maps/hosts.map': '' });
    const haproxy = await startHaproxy({
      haproxyBin: env.haproxyBin,
      baseDir: env.baseDir,
      masterSocket: env.masterSocket,
    });
    killOnExit(haproxy.child ?? haproxy.pid);
    env.defer(() => haproxy.stop());

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
    await assert.rejects(
      call({ url: `http://127.0.0.1:${port}` }, 'POST', '/v1/apply', {
        planId: 'p2',
        expectedPrevPlanId: 'p1',
        leaderEpoch: 1,
        files: [
          withContent('haproxy.cfg', config('new')),
          withContent('maps/hosts.map', 'new.test new\n'),
        ],
      }),
    );
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

    const p2 = await call({ url: `http://127.0.0.1:${port}` }, 'POST', '/v1/apply', {
      planId: 'p2',
      expectedPrevPlanId: 'p1',
      leaderEpoch: 1,
      files: [
        withContent('haproxy.cfg', config('new')),
        withContent('maps/hosts.map', 'new.test new\n'),
      ],
    });
    assert.equal(p2.status, 200, JSON.stringify(p2.body));
    assert.equal((await httpGet(httpPort)).body, 'backend=new\n');
  });
});

import { after, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { setTimeout as delay } from 'node:timers/promises';
import { alive, call, exited, freePort, spawnAgent, TestEnv } from './support/haproxy-fixture.js';

describe('haptic agent --start-haproxy across agent restarts', () => {
  const env = new TestEnv();
  after(() => env.cleanup());

  it('boots HAProxy from a bootstrap config, re-attaches after a SIGKILL, and stops HAProxy on shutdown', async () => {
    const port = await freePort();
    const first = await spawnAgent(env, port, undefined, ['--start-haproxy']);
    // spawnAgent has the master killed on cleanup should an assertion below fail.
    const masterPid = (await env.master().showProc()).master.pid;
    assert.match(env.read('haproxy.cfg'), /expose-fd listeners/);

    first.kill('SIGKILL');
    await exited(first);
    assert.equal(alive(masterPid), true);

    const second = await spawnAgent(env, port, undefined, ['--start-haproxy']);
    assert.equal((await env.master().showProc()).master.pid, masterPid);
    const state = await call({ url: `http://127.0.0.1:${port}` }, 'GET', '/v1/state');
    assert.equal(state.status, 200);

    second.kill('SIGTERM');
    await exited(second);
    for (let i = 0; i < 100 && alive(masterPid); i++) await delay(50);
    assert.equal(alive(masterPid), false);
  });
});

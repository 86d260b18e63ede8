import { after, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { setTimeout as delay } from 'node:timers/promises';
import { call, exited, freePort, killOnExit, spawnAgent, TestEnv } from './agent-harness.js';

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

describe('haptic agent --start-haproxy across agent restarts', () => {
  const env = new TestEnv();
  after(() => env.cleanup());

  it('boots HAProxy from a bootstrap config, re-attaches after a SIGKILL, and stops HAProxy on shutdown', async () => {
    const port = await freePort();
    const first = await spawnAgent(env, port, undefined, ['--start-haproxy']);
    const masterPid = (await env.master().showProc()).master.pid;
    killOnExit(masterPid);
    env.defer(() => {
      if (alive(masterPid)) process.kill(masterPid, 'SIGKILL');
    });
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

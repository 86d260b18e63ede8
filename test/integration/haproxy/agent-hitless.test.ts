import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { Agent, request } from 'node:http';
import { setTimeout as delay } from 'node:timers/promises';
import type { RunningAgent } from '../../../src/haproxy/agent/start-agent.js';
import { call, freePort, proxyConfig, TestEnv, withContent } from './support/haproxy-fixture.js';

interface LoadResult {
  sent: number;
  ok: number;
  failures: string[];
}

/** One GET; resolves to an error description or undefined on a 200. */
function once(port: number, agent: Agent | false): Promise<string | undefined> {
  return new Promise((resolve) => {
    const req = request({ host: '127.0.0.1', port, path: '/', agent }, (res) => {
      res.resume();
      res.on('end', () => {
        resolve(res.statusCode === 200 ? undefined : `status ${res.statusCode}`);
      });
      res.on('error', (e) => {
        resolve(`response ${e.message}`);
      });
    });
    req.setTimeout(5000, () => req.destroy(new Error('timeout')));
    req.on('error', (e) => {
      resolve(`request ${e.message}${req.reusedSocket ? ' (reused socket)' : ''}`);
    });
    req.end();
  });
}

/** Loops of sequential requests (half keep-alive, half a new connection each) until `stop`. */
async function load(port: number, stop: AbortSignal, maxRequests: number): Promise<LoadResult> {
  const result: LoadResult = { sent: 0, ok: 0, failures: [] };
  const keepAlive = new Agent({ keepAlive: true, maxSockets: 2 });
  const loop = async (agent: Agent | false): Promise<void> => {
    while (!stop.aborted && result.sent < maxRequests) {
      result.sent++;
      const err = await once(port, agent);
      if (err) result.failures.push(`${agent ? 'keep-alive' : 'new connection'}: ${err}`);
      else result.ok++;
    }
  };
  await Promise.all([loop(keepAlive), loop(keepAlive), loop(false), loop(false)]);
  keepAlive.destroy();
  return result;
}

describe('hitless reloads', () => {
  const env = new TestEnv();
  let agent: RunningAgent;
  let httpPort: number;
  let backendPort: number;

  const config = (generation: number): string =>
    proxyConfig(env.statsSocket, httpPort, backendPort, [
      `http-response set-header X-Generation ${String(generation)}`,
    ]);

  before(async () => {
    backendPort = (await env.echoBackends(['a']))['a'] ?? 0;
    httpPort = await freePort();
    agent = await env.startAgent({ reloadIntervalMinMs: 100 });
    const res = await call(agent, 'POST', '/v1/apply', {
      planId: 'g0',
      leaderEpoch: 1,
      files: [withContent('haproxy.cfg', config(0))],
    });
    assert.equal(res.status, 200, JSON.stringify(res.body));
  });
  after(() => env.cleanup());

  it('loses no request during 20 reload-requiring applies 200 ms apart', async (t) => {
    const stop = new AbortController();
    const running = load(httpPort, stop.signal, 200_000);
    const reloadsBefore = (await env.master().showProc()).master.reloads;
    try {
      for (let g = 1; g <= 20; g++) {
        const res = await call(agent, 'POST', '/v1/apply', {
          planId: `g${g}`,
          expectedPrevPlanId: `g${g - 1}`,
          leaderEpoch: 1,
          files: [withContent('haproxy.cfg', config(g))],
        });
        assert.equal(res.status, 200, JSON.stringify(res.body));
        assert.equal(res.body.mode, 'reload');
        assert.equal(res.body.reload.verified, true);
        await delay(200);
      }
    } finally {
      stop.abort();
    }
    const result = await running;
    t.diagnostic(
      `hitless: ${result.sent} requests during 20 reloads, ${result.failures.length} failed`,
    );
    assert.equal((await env.master().showProc()).master.reloads, reloadsBefore + 20);
    assert.ok(result.sent > 100, `the load generator sent only ${result.sent} requests`);
    assert.deepEqual(result.failures, []);
  });
});

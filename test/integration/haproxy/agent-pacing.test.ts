import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { setTimeout as delay } from 'node:timers/promises';
import type { RunningAgent } from '../../../src/haproxy/agent/start-agent.js';
import {
  call,
  freePort,
  httpGet,
  proxyConfig,
  TestEnv,
  withContent,
} from './support/haproxy-fixture.js';

describe('reload pacing and the runtime fallback', () => {
  const env = new TestEnv();
  let agent: RunningAgent;
  let httpPort: number;
  let backendPort: number;

  const cfg = (header: string): string =>
    proxyConfig(env.statsSocket, httpPort, backendPort, [
      'http-request set-var(txn.tag) req.hdr(host),map_str(maps/tags.map)',
      'http-response set-header X-Tag %[var(txn.tag)] if { var(txn.tag) -m found }',
      `http-response set-header X-Frontend ${header}`,
    ]);

  before(async () => {
    backendPort = (await env.echoBackends(['a']))['a'] ?? 0;
    httpPort = await freePort();
    agent = await env.startAgent({ reloadIntervalMinMs: 3000 });
    const res = await call(agent, 'POST', '/v1/apply', {
      planId: 'A',
      leaderEpoch: 1,
      files: [withContent('haproxy.cfg', cfg('v1')), withContent('maps/tags.map', '')],
    });
    assert.equal(res.status, 200, JSON.stringify(res.body));
    assert.equal(res.body.mode, 'reload');
  });
  after(() => env.cleanup());

  it('lets a runtime-only apply through while a reload waits for the minimum interval', async () => {
    const reloadsAfterA = (await env.master().showProc()).master.reloads;
    const settled: string[] = [];
    const b = call(agent, 'POST', '/v1/apply', {
      planId: 'B',
      leaderEpoch: 1,
      files: [withContent('haproxy.cfg', cfg('v2'))],
    }).then((r) => {
      settled.push('B');
      return r;
    });
    // Let B reach the agent first (it then steps aside for the pacer).
    await delay(200);
    const c = await call(agent, 'POST', '/v1/apply', {
      planId: 'C',
      leaderEpoch: 1,
      files: [withContent('maps/tags.map', 'app.test green\n')],
    });
    settled.push('C');
    assert.equal(c.status, 200, JSON.stringify(c.body));
    assert.equal(c.body.mode, 'runtime');
    assert.equal((await env.master().showProc()).master.reloads, reloadsAfterA);
    assert.equal((await httpGet(httpPort)).headers['x-tag'], 'green');

    const bRes = await b;
    assert.deepEqual(settled, ['C', 'B']);
    assert.equal(bRes.status, 200, JSON.stringify(bRes.body));
    assert.equal(bRes.body.mode, 'reload');
    assert.equal(bRes.body.reload.verified, true);
    assert.equal((await env.master().showProc()).master.reloads, reloadsAfterA + 1);
    const res = await httpGet(httpPort);
    assert.equal(res.headers['x-frontend'], 'v2');
    assert.equal(res.headers['x-tag'], 'green');
  });

  it('falls back to a verified reload when HAProxy cannot take a runtime op (a map value with ;)', async () => {
    const res = await call(agent, 'POST', '/v1/apply', {
      planId: 'D',
      leaderEpoch: 1,
      files: [withContent('maps/tags.map', 'app.test blue;green\n')],
    });
    assert.equal(res.status, 200, JSON.stringify(res.body));
    assert.equal(res.body.mode, 'reload');
    assert.equal(res.body.reload.verified, true);
    assert.equal((await httpGet(httpPort)).headers['x-tag'], 'blue;green');
    assert.ok(
      res.body.reasons.some((r: string) => /runtime ops failed/.test(r)),
      JSON.stringify(res.body.reasons),
    );
  });
});

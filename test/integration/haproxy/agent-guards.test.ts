import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { createServer, type AddressInfo } from 'node:net';
import { readFileTree, treeDigests } from '../../../src/haproxy/agent/file-tree.js';
import type { RunningAgent } from '../../../src/haproxy/agent/start-agent.js';
import {
  call,
  digest,
  freePort,
  httpGet,
  proxyConfig,
  TestEnv,
  withContent,
} from './support/haproxy-fixture.js';

describe('agent guards: auth, fencing, rejected configs and bad input change nothing', () => {
  const env = new TestEnv();
  let agent: RunningAgent;
  let httpPort: number;
  let cfg: string;

  const snapshot = async (): Promise<string> =>
    JSON.stringify(treeDigests(await readFileTree(env.baseDir))) +
    env.read('.haptic-agent/state.json');

  before(async () => {
    const ports = await env.echoBackends(['a']);
    httpPort = await freePort();
    cfg = proxyConfig(env.statsSocket, httpPort, ports['a'] ?? 0);
    agent = await env.startAgent({ maxBodyBytes: 1024 * 1024 });
    const res = await call(agent, 'POST', '/v1/apply', {
      planId: 'p1',
      leaderEpoch: 5,
      files: [withContent('haproxy.cfg', cfg)],
    });
    assert.equal(res.status, 200, JSON.stringify(res.body));
    assert.equal(res.body.mode, 'reload');
  });
  after(() => env.cleanup());

  it('serves /healthz without a token and refuses /v1 calls with a missing or wrong token', async () => {
    assert.equal((await call(agent, 'GET', '/healthz', undefined, null)).status, 200);
    assert.equal((await call(agent, 'GET', '/v1/state', undefined, null)).status, 401);
    assert.equal((await call(agent, 'GET', '/v1/state', undefined, 'wrong')).status, 401);
    const before = await snapshot();
    const res = await call(
      agent,
      'POST',
      '/v1/apply',
      { planId: 'x', leaderEpoch: 9, files: [] },
      'wrong',
    );
    assert.equal(res.status, 401);
    assert.equal(res.body.reason, 'unauthorized');
    assert.equal(await snapshot(), before);
  });

  it('reports plan id, epoch, HAProxy version and file digests in /v1/state', async () => {
    const res = await call(agent, 'GET', '/v1/state');
    assert.equal(res.status, 200);
    assert.equal(res.body.planId, 'p1');
    assert.equal(res.body.leaderEpoch, 5);
    assert.match(res.body.haproxyVersion, /^2\./);
    assert.deepEqual(res.body.files, [{ path: 'haproxy.cfg', digest: digest(cfg) }]);
  });

  it('answers 422 with file and line for a config haproxy -c rejects, and keeps serving the old one', async () => {
    const before = await snapshot();
    const reloadsBefore = (await env.master().showProc()).master.reloads;
    const bad = `${cfg}    bogus-keyword here\n`;
    const badLine = bad.split('\n').length - 1;
    const res = await call(agent, 'POST', '/v1/apply', {
      planId: 'p2',
      leaderEpoch: 5,
      files: [withContent('haproxy.cfg', bad)],
    });
    assert.equal(res.status, 422, JSON.stringify(res.body));
    assert.equal(res.body.reason, 'rejected');
    assert.ok(
      res.body.errors.some((e: any) => e.file === 'haproxy.cfg' && e.line === badLine),
      JSON.stringify(res.body.errors),
    );
    assert.equal(await snapshot(), before);
    assert.equal((await env.master().showProc()).master.reloads, reloadsBefore);
    assert.equal((await httpGet(httpPort)).body, 'backend=a\n');
  });

  it('refuses a lower leader epoch with 409 stale_epoch and changes nothing', async () => {
    const before = await snapshot();
    const res = await call(agent, 'POST', '/v1/apply', {
      planId: 'p3',
      leaderEpoch: 4,
      files: [withContent('haproxy.cfg', `${cfg}# deposed leader\n`)],
    });
    assert.equal(res.status, 409);
    assert.equal(res.body.reason, 'stale_epoch');
    assert.equal(await snapshot(), before);
  });

  it('refuses a wrong expected previous plan with 409 prev_mismatch', async () => {
    const before = await snapshot();
    const res = await call(agent, 'POST', '/v1/apply', {
      planId: 'p3',
      expectedPrevPlanId: 'not-p1',
      leaderEpoch: 5,
      files: [withContent('haproxy.cfg', `${cfg}# other\n`)],
    });
    assert.equal(res.status, 409);
    assert.equal(res.body.reason, 'prev_mismatch');
    assert.equal(await snapshot(), before);
  });

  it('answers 409 missing_content naming files whose digest it does not hold', async () => {
    const before = await snapshot();
    const res = await call(agent, 'POST', '/v1/apply', {
      planId: 'p3',
      leaderEpoch: 5,
      files: [
        { path: 'haproxy.cfg', digest: digest(cfg) },
        { path: 'maps/new.map', digest: digest('k v\n') },
      ],
    });
    assert.equal(res.status, 409);
    assert.equal(res.body.reason, 'missing_content');
    assert.deepEqual(res.body.missing, ['maps/new.map']);
    assert.equal(await snapshot(), before);
  });

  const badInputs: [string, unknown, number, string][] = [
    ['malformed JSON', '{"planId": "p9", ', 400, 'malformed_json'],
    [
      'a path with ..',
      { planId: 'p9', leaderEpoch: 5, files: [withContent('../escape.cfg', 'x')] },
      400,
      'bad_path',
    ],
    [
      'an absolute path',
      { planId: 'p9', leaderEpoch: 5, files: [withContent('/etc/passwd', 'x')] },
      400,
      'bad_path',
    ],
    [
      'a delete escaping the base dir',
      { planId: 'p9', leaderEpoch: 5, files: [], deletes: ['maps/../../x'] },
      400,
      'bad_path',
    ],
    [
      'an unknown field',
      { planId: 'p9', leaderEpoch: 5, files: [], force: true },
      400,
      'unknown_field',
    ],
    [
      'an unknown field in a file',
      { planId: 'p9', leaderEpoch: 5, files: [{ ...withContent('a.map', 'k v\n'), mode: 600 }] },
      400,
      'unknown_field',
    ],
    [
      'a digest mismatch',
      {
        planId: 'p9',
        leaderEpoch: 5,
        files: [{ ...withContent('haproxy.cfg', 'global\n'), digest: digest('other') }],
      },
      400,
      'digest_mismatch',
    ],
  ];
  for (const [name, body, status, reason] of badInputs) {
    it(`answers ${status} ${reason} for ${name} and changes nothing`, async () => {
      const before = await snapshot();
      const res = await call(agent, 'POST', '/v1/apply', body);
      assert.equal(res.status, status, JSON.stringify(res.body));
      assert.equal(res.body.reason, reason);
      assert.equal(await snapshot(), before);
    });
  }

  it('answers 413 for a body above the limit and changes nothing', async () => {
    const before = await snapshot();
    const huge = 'x'.repeat(2 * 1024 * 1024);
    const res = await call(agent, 'POST', '/v1/apply', {
      planId: 'p9',
      leaderEpoch: 5,
      files: [withContent('big.txt', huge)],
    });
    assert.equal(res.status, 413);
    assert.equal(res.body.reason, 'body_too_large');
    assert.equal(await snapshot(), before);
  });

  it('restores the old files when the reload fails although haproxy -c passed (port already taken)', async () => {
    const busy = createServer();
    await new Promise<void>((r) =>
      busy.listen(0, '127.0.0.1', () => {
        r();
      }),
    );
    env.defer(
      () =>
        new Promise<void>((r) =>
          busy.close(() => {
            r();
          }),
        ),
    );
    const busyPort = (busy.address() as AddressInfo).port;
    const before = await snapshot();
    const master = env.master();
    const workersBefore = (await master.showProc()).workers.map((w) => w.pid);
    const res = await call(agent, 'POST', '/v1/apply', {
      planId: 'p4',
      leaderEpoch: 5,
      files: [
        withContent(
          'haproxy.cfg',
          cfg.replace(
            '    default_backend be',
            `    bind 127.0.0.1:${busyPort}\n    default_backend be`,
          ),
        ),
      ],
    });
    assert.equal(res.status, 500, JSON.stringify(res.body));
    assert.equal(res.body.reason, 'apply_failed');
    assert.equal(await snapshot(), before);
    assert.deepEqual(
      (await master.showProc()).workers.map((w) => w.pid),
      workersBefore,
    );
    assert.equal((await httpGet(httpPort)).body, 'backend=a\n');
    assert.equal((await call(agent, 'GET', '/v1/state')).body.planId, 'p1');
  });

  it('counts applies, rejections and reloads in /metrics, which needs the token', async () => {
    assert.equal((await call(agent, 'GET', '/metrics', undefined, null)).status, 401);
    const res = await call(agent, 'GET', '/metrics');
    assert.equal(res.status, 200);
    assert.match(res.body, /haptic_agent_applies_total\{mode="reload"\} 1/);
    assert.match(res.body, /haptic_agent_rejections_total\{reason="stale_epoch"\} 1/);
    assert.match(res.body, /haptic_agent_rejections_total\{reason="rejected"\} 1/);
    assert.match(res.body, /haptic_agent_reloads_total\{result="success"\} 1/);
    assert.match(res.body, /haptic_agent_reloads_total\{result="failure"\} 1/);
    assert.match(res.body, /haptic_agent_rollbacks_total 1/);
    assert.match(res.body, /haptic_agent_rejections_total\{reason="unauthorized"\} \d+/);
  });
});

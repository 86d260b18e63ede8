// Behaviours of planChange that the golden cases do not show well: names, options, caps, order.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';

import { fileSetFromRecord } from '../../../../src/haproxy/plan/file-set.js';
import { planChange } from '../../../../src/haproxy/plan/plan-change.js';
import type { RuntimeOp } from '../../../../src/haproxy/plan/runtime-op.js';

const cfg = (extra = ''): string =>
  [
    'global',
    '    maxconn 100',
    'defaults',
    '    mode http',
    '    timeout client 5s',
    '    timeout server 5s',
    '    timeout connect 1s',
    'frontend fe',
    '    bind 127.0.0.1:8080',
    '    http-request set-var(txn.a) req.hdr(host),map(maps/hosts.map)',
    '    http-request set-var(txn.b) req.hdr(host),map_str(./maps/hosts.map)',
    '    http-request set-var(txn.c) req.hdr(host),map_str(/srv/hap/maps/abs.map)',
    '    default_backend be',
    'backend be',
    '    balance roundrobin',
    `    server a 10.0.0.1:80 id 1${extra}`,
  ].join('\n');

const ops = (d: ReturnType<typeof planChange>): readonly RuntimeOp[] =>
  d.mode === 'runtime' ? d.ops : [];

describe('planChange', () => {
  it('changes a map under every name haproxy.cfg uses for it', () => {
    const current = fileSetFromRecord({
      'haproxy.cfg': cfg(),
      'maps/hosts.map': 'a r1\n',
      'maps/abs.map': '',
    });
    const desired = fileSetFromRecord({
      'haproxy.cfg': cfg(),
      'maps/hosts.map': 'a r1\nb r2\n',
      'maps/abs.map': '',
    });
    assert.deepEqual(
      ops(planChange(current, desired)).map((o) => (o.op === 'map.add' ? o.map : o.op)),
      ['./maps/hosts.map', 'maps/hosts.map'],
    );
  });

  it('matches absolute map names to files only when the base directory is given', () => {
    const current = fileSetFromRecord({
      'haproxy.cfg': cfg(),
      'maps/hosts.map': '',
      'maps/abs.map': 'k v\n',
    });
    const desired = fileSetFromRecord({
      'haproxy.cfg': cfg(),
      'maps/hosts.map': '',
      'maps/abs.map': 'k w\n',
    });
    assert.deepEqual(ops(planChange(current, desired, { baseDir: '/srv/hap' })), [
      { op: 'map.set', map: '/srv/hap/maps/abs.map', key: 'k', value: 'w' },
    ]);
    const blind = planChange(current, desired);
    assert.equal(blind.mode, 'noop');
    assert.deepEqual(blind.reasons, [
      'maps/abs.map: changed, not used by haproxy.cfg (written only)',
    ]);
  });

  it('puts servers before map keys that route to them', () => {
    const current = fileSetFromRecord({
      'haproxy.cfg': cfg(),
      'maps/hosts.map': '',
      'maps/abs.map': '',
    });
    const desired = fileSetFromRecord({
      'haproxy.cfg': `${cfg()}\n    server b 10.0.0.2:80 id 2`,
      'maps/hosts.map': 'h be\n',
      'maps/abs.map': '',
    });
    assert.deepEqual(
      ops(planChange(current, desired)).map((o) => o.op),
      ['server.add', 'map.add', 'map.add'],
    );
  });

  it('answers reload whatever changed when the caller forces it', () => {
    const same = fileSetFromRecord({ 'haproxy.cfg': cfg() });
    assert.deepEqual(planChange(same, same, { forceReload: true }), {
      mode: 'reload',
      reasons: ['reload requested by the caller'],
    });
  });

  it('caps the reasons and says how many were left out', () => {
    const current = fileSetFromRecord({ 'haproxy.cfg': cfg() });
    const desired = fileSetFromRecord({
      'haproxy.cfg': cfg(),
      'files/a': '1',
      'files/b': '2',
      'files/c': '3',
    });
    assert.deepEqual(planChange(current, desired, { maxReasons: 2 }).reasons, [
      'files/a: added, not used by haproxy.cfg (written only)',
      'files/b: added, not used by haproxy.cfg (written only)',
      'and 1 more',
    ]);
  });

  it('reloads when the desired set has no haproxy.cfg', () => {
    const current = fileSetFromRecord({ 'haproxy.cfg': cfg() });
    assert.equal(planChange(current, fileSetFromRecord({})).mode, 'reload');
  });

  it('treats byte content equal to the current text as unchanged', () => {
    const current = fileSetFromRecord({ 'haproxy.cfg': cfg(), 'files/x.bin': 'abc' });
    const desired = fileSetFromRecord({
      'haproxy.cfg': cfg(),
      'files/x.bin': new Uint8Array([0x61, 0x62, 0x63]),
    });
    assert.deepEqual(planChange(current, desired), { mode: 'noop', reasons: ['no changes'] });
  });

  it('needs a reload when a server uses an environment variable', () => {
    const current = fileSetFromRecord({ 'haproxy.cfg': cfg() });
    const desired = fileSetFromRecord({
      'haproxy.cfg': `${cfg()}\n    server b "\${B_ADDR}":80 id 2`,
    });
    const d = planChange(current, desired);
    assert.equal(d.mode, 'reload');
    assert.match(d.reasons[0] ?? '', /line 17 added: server b/);
  });

  it('runs several changes of one server in a fixed order: address, maxconn, weight, state', () => {
    const current = fileSetFromRecord({ 'haproxy.cfg': cfg() });
    const desired = fileSetFromRecord({
      'haproxy.cfg': cfg().replace(
        '10.0.0.1:80 id 1',
        '10.0.0.9:81 id 1 weight 7 maxconn 5 disabled',
      ),
    });
    assert.deepEqual(
      ops(planChange(current, desired)).map((o) => o.op),
      ['server.set-addr', 'server.set-maxconn', 'server.set-weight', 'server.set-state'],
    );
  });
});

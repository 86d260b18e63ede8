import assert from 'node:assert/strict';
import { describe, it } from 'node:test';

import { findSection, parseCfg } from '../../../../src/haproxy/plan/cfg-parser.js';
import { backendBalance } from '../../../../src/haproxy/plan/plan-servers.js';
import {
  addServerParams,
  effectiveServer,
  parseServerAddress,
  parseServerKeywords,
  staticSignature,
  unaddableKeywords,
  type ServerKeyword,
} from '../../../../src/haproxy/plan/server-line.js';

function keywords(text: string): ServerKeyword[] {
  const parsed = parseServerKeywords(text === '' ? [] : text.split(' '));
  assert.ok(parsed.ok);
  return [...parsed.keywords];
}

describe('parseServerAddress', () => {
  it('reads IPv4 and IPv6 literals with ports, with or without brackets and family prefixes', () => {
    for (const [raw, host, port] of [
      ['10.0.0.1:8080', '10.0.0.1', 8080],
      ['[::1]:80', '::1', 80],
      ['::1:80', '::1', 80],
      ['ipv6@fe80::2:443', 'fe80::2', 443],
      ['ipv4@127.0.0.1:1', '127.0.0.1', 1],
    ] as const) {
      const a = parseServerAddress(raw);
      assert.deepEqual([a.host, a.port, a.isIp, a.oddPort], [host, port, true, false], raw);
    }
  });

  it('marks host names, missing ports, port offsets and socket addresses as not settable at runtime', () => {
    assert.equal(parseServerAddress('web.internal:80').isIp, false);
    assert.equal(parseServerAddress('10.0.0.1').port, undefined);
    assert.equal(parseServerAddress('10.0.0.1:+1').oddPort, true);
    assert.equal(parseServerAddress('10.0.0.1:8000-8010').oddPort, true);
    assert.equal(parseServerAddress('unix@/run/app.sock').isIp, false);
    assert.equal(parseServerAddress('999.0.0.1:80').isIp, false);
  });
});

describe('parseServerKeywords', () => {
  it('pairs value keywords with their argument and keeps flags alone', () => {
    assert.deepEqual(keywords('check inter 2s ssl verify none'), [
      { name: 'check', value: undefined },
      { name: 'inter', value: '2s' },
      { name: 'ssl', value: undefined },
      { name: 'verify', value: 'none' },
    ]);
  });

  it('reports the first keyword it does not know', () => {
    assert.deepEqual(parseServerKeywords(['check', 'frobnicate', '1']), {
      ok: false,
      unknown: 'frobnicate',
    });
  });
});

describe('effectiveServer', () => {
  it('merges default-server keywords before the line own keywords, the last value winning', () => {
    const s = effectiveServer(
      ['server', 'a', '10.0.0.1:80', 'id', '4', 'weight', '20', 'enabled'],
      7,
      false,
      keywords('check weight 5 maxconn 7 disabled'),
    );
    assert.deepEqual(
      [s.explicitId, s.weight, s.maxconn, s.disabled, s.check, s.lineNo],
      [4, 20, 7, false, true, 7],
    );
    assert.deepEqual(addServerParams(s), ['check', 'maxconn', '7']);
  });

  it('defaults to weight 1, no maxconn, enabled, no checks', () => {
    const s = effectiveServer(['server', 'a', '10.0.0.1:80'], 1, false, []);
    assert.deepEqual(
      [s.explicitId, s.weight, s.maxconn, s.disabled, s.check, s.agentCheck],
      [undefined, 1, 0, false, false, false],
    );
  });

  it('ignores runtime-settable keywords in the static signature', () => {
    const a = effectiveServer(['server', 'a', '10.0.0.1:80', 'weight', '1', 'check'], 1, false, []);
    const b = effectiveServer(
      ['server', 'a', '10.0.0.2:81', 'weight', '9', 'maxconn', '3', 'disabled', 'check'],
      1,
      false,
      [],
    );
    const c = effectiveServer(['server', 'a', '10.0.0.1:80', 'check', 'inter', '1s'], 1, false, []);
    assert.equal(staticSignature(a), staticSignature(b));
    assert.notEqual(staticSignature(a), staticSignature(c));
  });

  it('lists the keywords add server refuses on 2.6', () => {
    const s = effectiveServer(
      ['server', 'a', '10.0.0.1:80', 'cookie', 'c1', 'check', 'resolvers', 'dns'],
      1,
      false,
      [],
    );
    assert.deepEqual(unaddableKeywords(s), ['cookie', 'resolvers']);
    const unknown = effectiveServer(['server', 'a', '10.0.0.1:80', 'shard', '1'], 1, false, []);
    assert.deepEqual(unaddableKeywords(unknown), ['shard']);
  });
});

describe('backendBalance', () => {
  const cfg = parseCfg(
    [
      'defaults chash',
      '    balance uri',
      '    hash-type consistent',
      'backend a',
      '    balance static-rr',
      'backend b from chash',
      'backend c from chash',
      '    hash-type map-based',
      'backend d from chash',
      '    balance random(2)',
    ].join('\n'),
  );
  const balance = (name: string): [string, boolean] => {
    const section = findSection(cfg, 'backend', name);
    assert.ok(section);
    const b = backendBalance(cfg, section);
    return [b.algorithm, b.dynamic];
  };

  it('says which algorithms support dynamic servers, following defaults', () => {
    assert.deepEqual(balance('a'), ['static-rr', false]);
    assert.deepEqual(balance('b'), ['uri', true]);
    assert.deepEqual(balance('c'), ['uri', false]);
    assert.deepEqual(balance('d'), ['random(2)', true]);
  });
});

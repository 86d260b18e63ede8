import assert from 'node:assert/strict';
import { describe, it } from 'node:test';

import { parseCfg } from '../../../../src/haproxy/plan/cfg-parser.js';
import {
  collectCfgReferences,
  resolveCfgPath,
} from '../../../../src/haproxy/plan/cfg-references.js';

describe('resolveCfgPath', () => {
  it('normalises relative names and maps absolute names under the base directory', () => {
    assert.equal(resolveCfgPath('./maps/a.map', undefined), 'maps/a.map');
    assert.equal(resolveCfgPath('maps//x/../a.map', undefined), 'maps/a.map');
    assert.equal(resolveCfgPath('certs/', undefined), 'certs');
    assert.equal(resolveCfgPath('/etc/haproxy/maps/a.map', '/etc/haproxy'), 'maps/a.map');
  });

  it('refuses names outside the base directory', () => {
    assert.equal(resolveCfgPath('../secret', undefined), undefined);
    assert.equal(resolveCfgPath('/etc/passwd', '/etc/haproxy'), undefined);
    assert.equal(resolveCfgPath('/etc/haproxy/a', undefined), undefined);
  });
});

describe('collectCfgReferences', () => {
  const cfg = parseCfg(
    [
      'global',
      '    lua-load files/a.lua',
      'frontend fe',
      '    bind :443 ssl crt-list crt-lists/fe.txt ca-file certs/ca.pem',
      '    bind :8443 ssl crt certs/ verify none',
      '    acl blocked src -f maps/blocked.acl',
      '    acl host_ok hdr(host) -M -f maps/hosts.map',
      '    http-request set-var(txn.r) var(txn.hp),map_beg(maps/prefix.map,none)',
      '    http-request set-var(txn.x) var(txn.hp),map_reg_int(./maps/re.map)',
      '    http-request set-map(maps/learned.map) %[src] %[req.hdr(x)]',
      '    http-request add-acl(maps/seen.acl) %[src]',
      '    errorfile 503 files/503.http',
      'backend be',
      '    server s 10.0.0.1:443 ssl crt certs/client.pem ca-file certs/ca2.pem',
    ].join('\n'),
  );
  const refs = collectCfgReferences(cfg, undefined).refs;
  const find = (path: string): string[] =>
    refs.filter((r) => r.path === path).map((r) => `${r.use}:${r.name}:${String(r.ordered)}`);

  it('classifies pattern files used by maps and ACLs, with the order sensitivity of the lookup', () => {
    assert.deepEqual(find('maps/blocked.acl'), ['acl:maps/blocked.acl:false']);
    assert.deepEqual(find('maps/hosts.map'), ['map:maps/hosts.map:true']);
    assert.deepEqual(find('maps/prefix.map'), ['map:maps/prefix.map:false']);
    assert.deepEqual(find('maps/re.map'), ['map:./maps/re.map:true']);
    assert.deepEqual(find('maps/learned.map'), ['map:maps/learned.map:false']);
    assert.deepEqual(find('maps/seen.acl'), ['acl:maps/seen.acl:false']);
  });

  it('classifies TLS files named on binds and servers', () => {
    assert.deepEqual(find('crt-lists/fe.txt'), ['crtlist:crt-lists/fe.txt:false']);
    assert.deepEqual(find('certs'), ['cert:certs/:false']);
    assert.deepEqual(find('certs/client.pem'), ['cert:certs/client.pem:false']);
    assert.deepEqual(find('certs/ca.pem'), ['cafile:certs/ca.pem:false']);
    assert.deepEqual(find('certs/ca2.pem'), ['cafile:certs/ca2.pem:false']);
  });

  it('treats every other file name as a general file', () => {
    assert.deepEqual(find('files/503.http'), ['general:files/503.http:false']);
    assert.deepEqual(find('files/a.lua'), ['general:files/a.lua:false']);
  });

  it('keeps only general names that are known files or directories when a filter is given', () => {
    const filtered = collectCfgReferences(cfg, undefined, (p) => p === 'files/503.http').refs;
    assert.deepEqual(
      filtered.filter((r) => r.use === 'general').map((r) => r.path),
      ['files/503.http'],
    );
  });

  it('notes crt-base and ca-base, which change the names HAProxy uses', () => {
    const withBase = collectCfgReferences(parseCfg('global\n    crt-base /etc/ssl\n'), undefined);
    assert.deepEqual(withBase.baseDirectives, ['crt-base']);
  });
});

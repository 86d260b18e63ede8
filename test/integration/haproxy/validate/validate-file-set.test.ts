import assert from 'node:assert/strict';
import { readdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { mkdtempSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { validateFileSet } from '../../../../src/haproxy/validate/validate-file-set.js';
import { haproxyQuote } from '../../../../src/templating/tenant-escaping-filters.js';
import { ensureHaproxy } from '../../../../src/testing/haproxy-install.js';

const BASE = '/etc/haproxy-production-does-not-exist';

// `prefix` is '' for the layout the renderer produces (paths relative to the base dir), or
// `${BASE}/` for a set that still names absolute production paths.
function config(extraFrontendLines: readonly string[], prefix = ''): string {
  return [
    'global',
    '  master-worker',
    'defaults',
    '  mode http',
    '  timeout connect 5s',
    '  timeout client 5s',
    '  timeout server 5s',
    'frontend http',
    '  bind 127.0.0.1:18081',
    `  use_backend %[req.hdr(host),lower,map(${prefix}maps/hosts.map,be_default)]`,
    ...extraFrontendLines,
    '  default_backend be_default',
    'backend be_default',
    `  http-request return status 503 content-type text/plain file ${prefix}files/503.txt`,
    '',
  ].join('\n');
}

describe('validateFileSet with a real haproxy', () => {
  let haproxyBin = '';
  let scratchParent = '';
  before(() => {
    haproxyBin = ensureHaproxy();
    scratchParent = mkdtempSync(join(tmpdir(), 'haptic-fileset-test-'));
  });
  after(() => {
    rmSync(scratchParent, { recursive: true, force: true });
  });

  const files = (cfg: string) => [
    { path: 'haproxy.cfg', content: cfg },
    { path: 'maps/hosts.map', content: 'shop.example.com be_default\n' },
    { path: 'files/503.txt', content: 'busy\n' },
  ];

  it('checks a set with paths relative to the base dir, so maps and files that exist only in the set are found', async () => {
    const result = await validateFileSet({
      haproxyBin,
      configPath: 'haproxy.cfg',
      files: files(config([])),
      scratchParent,
    });
    assert.deepEqual(result.errors, []);
    assert.equal(result.valid, true);
  });

  it('remaps absolute production paths below baseDir into the scratch tree', async () => {
    const result = await validateFileSet({
      haproxyBin,
      baseDir: BASE,
      configPath: `${BASE}/haproxy.cfg`,
      files: [
        { path: `${BASE}/haproxy.cfg`, content: config([], `${BASE}/`) },
        { path: `${BASE}/maps/hosts.map`, content: 'shop.example.com be_default\n' },
        { path: 'files/503.txt', content: 'busy\n' },
      ],
      scratchParent,
    });
    assert.deepEqual(result.errors, []);
    assert.equal(result.valid, true);
  });

  it('refuses an absolute file path when no baseDir says where it belongs', async () => {
    await assert.rejects(
      validateFileSet({
        haproxyBin,
        configPath: 'haproxy.cfg',
        files: [{ path: `${BASE}/haproxy.cfg`, content: config([]) }],
        scratchParent,
      }),
      /is absolute; give paths relative to the base directory/,
    );
    await assert.rejects(
      validateFileSet({
        haproxyBin,
        configPath: 'haproxy.cfg',
        files: [{ path: '../haproxy.cfg', content: config([]) }],
        scratchParent,
      }),
      /is not below the base directory/,
    );
    assert.deepEqual(readdirSync(scratchParent), []);
  });

  it('reports a missing map relative to the base directory and removes the scratch tree', async () => {
    const result = await validateFileSet({
      haproxyBin,
      configPath: 'haproxy.cfg',
      files: files(config([])).filter((f) => !f.path.endsWith('hosts.map')),
      scratchParent,
    });
    assert.equal(result.valid, false);
    assert.match(result.errors.map((e) => e.message).join('\n'), /maps\/hosts\.map/);
    assert.doesNotMatch(JSON.stringify(result), /haptic-validate-/);
    assert.deepEqual(readdirSync(scratchParent), []);
  });

  it('keeps every printable hostile tenant value one argument when quoted with haproxy_quote', async () => {
    const hostile = [
      'a lua-load /tmp/x.lua',
      'a #comment',
      "it's",
      '"quoted"',
      'back\\slash',
      '$HOME',
    ];
    const lines = hostile.map(
      (v, i) => `  http-request set-header X-Tenant-${i} ${haproxyQuote(v)}`,
    );
    const cfg = config(lines);
    assert.equal(cfg.split('\n').length, config([]).split('\n').length + hostile.length);
    const result = await validateFileSet({
      haproxyBin,
      configPath: 'haproxy.cfg',
      files: files(cfg),
      scratchParent,
    });
    assert.deepEqual(result.errors, []);
    assert.equal(result.valid, true);
  });

  it('would reject the same values unquoted, which is what the quoting prevents', async () => {
    const cfg = config(['  http-request set-header X-Tenant a lua-load /tmp/x.lua']);
    const result = await validateFileSet({
      haproxyBin,
      configPath: 'haproxy.cfg',
      files: files(cfg),
      scratchParent,
    });
    assert.equal(result.valid, false);
    const [first] = result.errors;
    assert.ok(first);
    assert.deepEqual([first.file, first.line], ['haproxy.cfg', 11]);
  });
});

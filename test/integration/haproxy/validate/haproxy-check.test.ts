import assert from 'node:assert/strict';
import { mkdtempSync, mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { AbortedError } from '../../../../src/core/errors.js';
import { checkHaproxyConfig } from '../../../../src/haproxy/validate/haproxy-check.js';
import { ensureHaproxy } from '../../../../src/testing/haproxy-install.js';

const DEFAULTS = [
  'defaults',
  '  mode http',
  '  timeout connect 5s',
  '  timeout client 5s',
  '  timeout server 5s',
];

describe('checkHaproxyConfig with a real haproxy', () => {
  let haproxyBin = '';
  let dir = '';
  before(() => {
    haproxyBin = ensureHaproxy();
    dir = mkdtempSync(join(tmpdir(), 'haptic-check-test-'));
    mkdirSync(join(dir, 'maps'));
    writeFileSync(join(dir, 'maps', 'host.map'), 'example.com be_app\n');
  });
  after(() => {
    rmSync(dir, { recursive: true, force: true });
  });

  it('accepts a valid config whose converter names a map relative to the base directory', async () => {
    writeFileSync(
      join(dir, 'ok.cfg'),
      [
        ...DEFAULTS,
        'frontend http',
        '  bind 127.0.0.1:18080',
        '  use_backend %[req.hdr(host),lower,map(maps/host.map,be_app)]',
        'backend be_app',
        '  server s1 127.0.0.1:1',
        '',
      ].join('\n'),
    );
    const result = await checkHaproxyConfig({ haproxyBin, baseDir: dir, configPath: 'ok.cfg' });
    assert.equal(result.valid, true);
    assert.deepEqual(result.errors, []);
  });

  it('reports an unknown keyword with its file and line, relative to the base directory', async () => {
    writeFileSync(
      join(dir, 'bad.cfg'),
      [...DEFAULTS, 'frontend http', '  bind 127.0.0.1:18080', '  bogus_directive on', ''].join(
        '\n',
      ),
    );
    const result = await checkHaproxyConfig({
      haproxyBin,
      baseDir: dir,
      configPath: join(dir, 'bad.cfg'),
    });
    assert.equal(result.valid, false);
    assert.equal(result.errors.length, 1);
    const [err] = result.errors;
    assert.ok(err);
    assert.equal(err.file, 'bad.cfg');
    assert.equal(err.line, 8);
    assert.match(err.message, /unknown keyword 'bogus_directive'/);
    assert.doesNotMatch(JSON.stringify(result), new RegExp(dir));
  });

  it('rejects with AbortedError when the signal is already aborted', async () => {
    await assert.rejects(
      checkHaproxyConfig({
        haproxyBin,
        baseDir: dir,
        configPath: 'ok.cfg',
        signal: AbortSignal.abort(),
      }),
      AbortedError,
    );
  });
});

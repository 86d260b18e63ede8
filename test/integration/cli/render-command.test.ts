import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { ensureHaproxy } from '../../../src/testing/haproxy-install.js';
import { runHaptic } from './run-haptic.js';

const CONFIG = 'examples/ingress-basic/config.yaml';
const FIXTURES = 'examples/ingress-basic/fixtures.yaml';

describe('haptic render (child process)', () => {
  let dir = '';
  before(() => {
    ensureHaproxy();
    dir = mkdtempSync(join(tmpdir(), 'haptic-render-cli-'));
    writeFileSync(
      join(dir, 'unroutable.yaml'),
      'apiVersion: apps/v1\nkind: Deployment\nmetadata: { name: x, namespace: y }\n',
    );
    writeFileSync(
      join(dir, 'hostile.yaml'),
      'apiVersion: networking.k8s.io/v1\nkind: Ingress\nmetadata: { name: x, namespace: y }\nspec:\n  ingressClassName: haproxy\n  rules:\n    - host: "a.example.com#x"\n      http: { paths: [ { path: /, pathType: Prefix, backend: { service: { name: web, port: { number: 80 } } } } ] }\n',
    );
  });
  after(() => {
    rmSync(dir, { recursive: true, force: true });
  });

  it('writes the file set at its paths relative to the base dir and validates it with haproxy -c', async () => {
    const out = join(dir, 'out');
    const run = await runHaptic([
      'render',
      '-f',
      CONFIG,
      '--fixtures',
      FIXTURES,
      '--out',
      out,
      '--validate',
    ]);
    assert.equal(run.code, 0, run.stderr);
    assert.match(run.stderr, /haproxy -c: configuration is valid/);
    const cfg = readFileSync(join(out, 'haproxy.cfg'), 'utf8');
    assert.match(cfg, /^backend be_shop_web_80$/m);
    assert.match(cfg, /map_beg\(maps\/path-prefix\.map\)/);
    assert.equal(
      readFileSync(join(out, 'maps', 'path-prefix.map'), 'utf8'),
      'shop.example.com/ be_shop_web_80\n',
    );
    const patches = JSON.parse(readFileSync(join(out, 'status-patches.json'), 'utf8')) as {
      name: string;
    }[];
    assert.deepEqual(
      patches.map((p) => p.name),
      ['web'],
    );
  });

  it('prints haproxy.cfg to stdout without --out', async () => {
    const run = await runHaptic(['render', '-f', CONFIG, '--fixtures', FIXTURES]);
    assert.equal(run.code, 0, run.stderr);
    assert.match(run.stdout, /^global\n {2}master-worker\n/);
    assert.match(run.stderr, /checksum sha256:[0-9a-f]{64}/);
  });

  it('exits 2 for an object no watched resource takes, naming it', async () => {
    const run = await runHaptic([
      'render',
      '-f',
      CONFIG,
      '--fixtures',
      join(dir, 'unroutable.yaml'),
    ]);
    assert.equal(run.code, 2);
    assert.match(
      run.stderr,
      /object #1 \(Deployment y\/x\): no watched resource has apiVersion apps\/v1 and kind Deployment/,
    );
  });

  it('exits 1 when rendering fails, naming the template and line', async () => {
    const run = await runHaptic(['render', '-f', CONFIG, '--fixtures', join(dir, 'hostile.yaml')]);
    assert.equal(run.code, 1);
    assert.match(
      run.stderr,
      /template routes-collect:\d+:\d+: safe_host: host "a\.example\.com#x" contains "#"/,
    );
  });
});

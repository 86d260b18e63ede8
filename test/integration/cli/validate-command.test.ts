import assert from 'node:assert/strict';
import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { ensureHaproxy } from '../../../src/testing/haproxy-install.js';
import { runHaptic } from './run-haptic.js';

const EXAMPLE = 'examples/ingress-basic/config.yaml';

const FAILING = `apiVersion: haproxy-haptic.org/v1alpha1
kind: HAProxyTemplateConfig
metadata: { name: failing }
spec:
  watchedResources:
    services: { apiVersion: v1, resources: services }
  haproxyConfig: { template: "global\\n  master-worker\\n" }
  validationTests:
    good:
      assertions: [ { type: contains, pattern: master-worker } ]
    bad:
      assertions: [ { type: contains, pattern: lua-load, description: wants lua } ]
`;

describe('haptic validate (child process)', () => {
  let dir = '';
  before(() => {
    ensureHaproxy();
    dir = mkdtempSync(join(tmpdir(), 'haptic-validate-cli-'));
    writeFileSync(join(dir, 'failing.yaml'), FAILING);
    writeFileSync(
      join(dir, 'bad-target.yaml'),
      FAILING.replace('pattern: lua-load', 'pattern: x, target: "maps:x"'),
    );
  });
  after(() => {
    rmSync(dir, { recursive: true, force: true });
  });

  it('exits 0 and reports every test of the shipped example as passed, including haproxy_valid', async () => {
    const run = await runHaptic(['validate', '-f', EXAMPLE, '--dump-rendered', join(dir, 'dump')]);
    assert.equal(run.code, 0, run.stderr + run.stdout);
    assert.match(run.stdout, /^PASS routes-render-to-maps-and-backends /m);
    assert.match(run.stdout, /^PASS prefix-matches-whole-path-elements /m);
    assert.match(run.stdout, /5 passed, 0 failed/);
    assert.ok(
      existsSync(
        join(dir, 'dump', 'routes-render-to-maps-and-backends', 'maps', 'path-prefix.map'),
      ),
    );
  });

  it('prints the documented JSON shape with -o json', async () => {
    const run = await runHaptic([
      'validate',
      '-f',
      EXAMPLE,
      '-o',
      'json',
      '--workers',
      '2',
      '--test',
      'ingress-status-is-patched',
    ]);
    assert.equal(run.code, 0, run.stderr);
    const doc = JSON.parse(run.stdout) as Record<string, unknown>;
    assert.deepEqual(Object.keys(doc).sort(), ['failed', 'passed', 'tests']);
    assert.deepEqual([doc['passed'], doc['failed']], [1, 0]);
    const tests = doc['tests'] as Record<string, unknown>[];
    assert.equal(tests.length, 1);
    assert.deepEqual(Object.keys(tests[0]!).sort(), ['assertions', 'durationMs', 'name', 'passed']);
    assert.equal(tests[0]!['name'], 'ingress-status-is-patched');
    assert.equal(typeof tests[0]!['durationMs'], 'number');
    for (const a of tests[0]!['assertions'] as Record<string, unknown>[]) {
      assert.deepEqual(Object.keys(a).sort(), ['message', 'passed', 'target', 'type']);
    }
  });

  it('exits 1 when a test fails and says which assertion failed', async () => {
    const run = await runHaptic(['validate', '-f', join(dir, 'failing.yaml')]);
    assert.equal(run.code, 1, run.stderr);
    assert.match(run.stdout, /^PASS good/m);
    assert.match(run.stdout, /^FAIL bad/m);
    assert.match(
      run.stdout,
      /FAIL contains haproxy\.cfg \(wants lua\): pattern \/lua-load\/ not found/,
    );
    assert.match(run.stdout, /1 passed, 1 failed/);
  });

  it('exits 2 naming an unknown assertion target in the config', async () => {
    const run = await runHaptic(['validate', '-f', join(dir, 'bad-target.yaml')]);
    assert.equal(run.code, 2);
    assert.match(
      run.stderr,
      /spec\.validationTests\.bad\.assertions\[0\]\.target: unknown assertion target "maps:x"/,
    );
  });

  it('exits 2 for an unknown test name, a missing file and a bad --workers value', async () => {
    const unknownTest = await runHaptic(['validate', '-f', EXAMPLE, '--test', 'nope']);
    assert.equal(unknownTest.code, 2);
    assert.match(unknownTest.stderr, /unknown validation test\(s\): nope/);
    const missing = await runHaptic(['validate', '-f', join(dir, 'missing.yaml')]);
    assert.equal(missing.code, 2);
    assert.match(missing.stderr, /missing\.yaml/);
    const workers = await runHaptic(['validate', '-f', EXAMPLE, '--workers', '0']);
    assert.equal(workers.code, 2);
  });
});

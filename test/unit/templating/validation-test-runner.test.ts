import assert from 'node:assert/strict';
import { chmodSync, mkdtempSync, readFileSync, rmSync, writeFileSync, existsSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { parseTemplateConfigYaml } from '../../../src/templating/load-template-config.js';
import { createTemplateRenderer } from '../../../src/templating/template-renderer.js';
import {
  runValidationTests,
  type ValidationTestResult,
} from '../../../src/templating/validation-test-runner.js';

/**
 * A fake `haproxy -c`: rejects a config holding the word INVALID with an HAProxy-style alert,
 * accepts anything else. Keeps these tests independent of an installed HAProxy.
 */
const FAKE_HAPROXY = `#!/bin/sh
while [ $# -gt 0 ]; do case "$1" in -C) dir="$2"; shift 2;; -f) cfg="$2"; shift 2;; *) shift;; esac; done
if grep -n INVALID "$dir/$cfg" >/dev/null; then
  line=$(grep -n INVALID "$dir/$cfg" | head -1 | cut -d: -f1)
  echo "[ALERT]    (4242) : config : parsing [$cfg:$line] : unknown keyword 'INVALID' in 'global' section" >&2
  exit 1
fi
echo "Configuration file is valid"
`;

const CONFIG = `apiVersion: haproxy-haptic.org/v1alpha1
kind: HAProxyTemplateConfig
metadata: { name: runner }
spec:
  watchedResources:
    services: { apiVersion: v1, resources: services, indexBy: ["metadata.namespace", "metadata.name"] }
  templateSnippets:
    status-patches-services:
      template: |
        {% for s in resources.services.list() %}
        {% set _ = statusPatch(s, { rendered: { phase: "rendered", n: s.metadata.name }, deployed: { phase: "live" } }) %}
        {% endfor %}
  haproxyConfig:
    template: |
      {% include "status-patches-services" %}
      global
      {% if mode == "invalid" %}
        INVALID
      {% endif %}
      {% for s in resources.services.list() %}
      {% if s.metadata.name == "boom" %}{{ fail("service boom is not allowed") }}{% endif %}
      backend be_{{ s.metadata.name }}
        server s1 10.0.0.1:80
      {% endfor %}
  maps:
    hosts.map:
      template: |
        {% for s in resources.services.list() %}
        {{ s.metadata.name }}.example.com be_{{ s.metadata.name }}
        {% endfor %}
  files:
    note.txt: { template: "note {{ mode }}" }
  sslCertificates:
    a.pem: { template: "CERT {{ mode }}" }
  templatingSettings:
    extraContext: { mode: normal }
  validationTests:
    _global:
      fixtures:
        services:
          - { apiVersion: v1, kind: Service, metadata: { namespace: shop, name: web } }
          - { apiVersion: v1, kind: Service, metadata: { namespace: shop, name: api } }
    all-pass:
      description: every assertion type and target, passing
      assertions:
        - { type: haproxy_valid }
        - { type: contains, pattern: '^backend be_web$' }
        - { type: not_contains, pattern: '^backend be_db$' }
        - { type: match_count, pattern: '^backend ', expected: 2 }
        - { type: match_order, patterns: ['be_api', 'be_web'] }
        - { type: equals, target: 'map:hosts.map', expected: "api.example.com be_api\\nweb.example.com be_web\\n" }
        - { type: contains, target: 'file:note.txt', pattern: '^note normal$' }
        - { type: contains, target: 'cert:a.pem', pattern: CERT }
        - { type: jsonpath, jsonpath: '{.resources.services[1].metadata.name}', expected: web }
        - { type: jsonpath, jsonpath: '{.mode}' }
        - { type: contains, target: 'status:shop/web:rendered', pattern: '"n":"web"' }
        - { type: jsonpath, target: 'status:shop/api:deployed', jsonpath: '{.phase}', expected: live }
        - { type: deterministic }
    all-fail:
      description: every assertion type and target, failing
      fixtures:
        services:
          - { apiVersion: v1, kind: Service, metadata: { namespace: shop, name: web }, spec: { replaced: true } }
      extraContext: { mode: invalid }
      assertions:
        - { type: haproxy_valid }
        - { type: contains, pattern: '^backend be_db$' }
        - { type: not_contains, pattern: '^backend be_web$' }
        - { type: match_count, pattern: '^backend ', expected: 5 }
        - { type: match_order, patterns: ['be_web', 'be_api'] }
        - { type: equals, target: 'map:hosts.map', expected: "nothing" }
        - { type: contains, target: 'map:missing.map', pattern: x }
        - { type: contains, target: 'file:note.txt', pattern: '^note normal$' }
        - { type: contains, target: 'cert:a.pem', pattern: NOPE }
        - { type: contains, target: 'crt-list:none.list', pattern: x }
        - { type: jsonpath, jsonpath: '{.resources.services[0].metadata.name}', expected: db }
        - { type: jsonpath, target: 'status:shop/web:deployed', jsonpath: '{.phase}', expected: rendered }
        - { type: contains, target: 'status:shop/web:deployFailed', pattern: x }
        - { type: contains, target: 'status:other/x:rendered', pattern: x }
        - { type: contains, target: rendering_error, pattern: x }
    fail-is-caught:
      description: fail() is caught by a rendering_error assertion
      fixtures:
        services:
          - { apiVersion: v1, kind: Service, metadata: { namespace: shop, name: boom } }
      assertions:
        - { type: contains, target: rendering_error, pattern: '^service boom is not allowed$' }
        - { type: not_contains, target: rendering_error, pattern: 'undefined' }
        - { type: equals, target: rendering_error, expected: 'service boom is not allowed' }
        - { type: contains, pattern: 'global' }
        - { type: haproxy_valid }
        - { type: deterministic }
`;

describe('runValidationTests', () => {
  let dir = '';
  let fakeHaproxy = '';
  let results: Record<string, ValidationTestResult> = {};
  const renderer = createTemplateRenderer(parseTemplateConfigYaml(CONFIG, 'runner.yaml'));

  before(async () => {
    dir = mkdtempSync(join(tmpdir(), 'haptic-runner-test-'));
    fakeHaproxy = join(dir, 'FakeHaproxy.sh');
    writeFileSync(fakeHaproxy, FAKE_HAPROXY);
    chmodSync(fakeHaproxy, 0o755);
    const run = await runValidationTests(renderer, {
      haproxyBin: () => fakeHaproxy,
      workers: 2,
      dumpDir: join(dir, 'dump'),
    });
    results = Object.fromEntries(run.tests.map((t) => [t.name, t]));
    assert.deepEqual([run.passed, run.failed], [1, 2]);
  });
  after(() => {
    rmSync(dir, { recursive: true, force: true });
  });

  it('passes every assertion type and target when the output matches', () => {
    const t = results['all-pass']!;
    assert.deepEqual(
      t.assertions.filter((a) => !a.passed).map((a) => `${a.type} ${a.target}: ${a.message}`),
      [],
    );
    assert.equal(t.passed, true);
    assert.equal(t.assertions.length, 13);
  });

  it('fails every assertion type and target when the output does not match, saying why', () => {
    const t = results['all-fail']!;
    assert.equal(t.passed, false);
    const failed = t.assertions.filter((a) => !a.passed).map((a) => `${a.type} ${a.target}`);
    assert.equal(
      failed.length,
      t.assertions.length,
      `passed unexpectedly: ${JSON.stringify(t.assertions.filter((a) => a.passed))}`,
    );
    const msg = (i: number) => t.assertions[i]!.message;
    assert.match(
      msg(0),
      /haproxy -c rejected the config: haproxy\.cfg:2: unknown keyword 'INVALID'/,
    );
    assert.match(msg(3), /matched 2 time\(s\), expected 5/);
    assert.match(msg(6), /map "missing\.map" was not rendered \(rendered: hosts\.map\)/);
    assert.match(msg(7), /not found/);
    assert.match(msg(12), /has no "deployFailed" variant/);
    assert.match(msg(13), /no status patch registered for other\/x/);
    assert.match(msg(14), /expected rendering to fail, but it succeeded/);
  });

  it('replaces a _global fixture with the test fixture of the same identity', () => {
    // all-fail redefines shop/web: two backends (its web and the global api), not three.
    assert.match(results['all-fail']!.assertions[3]!.message, /matched 2 time\(s\)/);
    assert.match(results['all-fail']!.assertions[10]!.message, /= "api", expected "db"/);
  });

  it('catches fail() with a rendering_error assertion, while file assertions on a failed render fail', () => {
    const t = results['fail-is-caught']!;
    assert.deepEqual(
      t.assertions.map((a) => a.passed),
      [true, true, true, false, false, false],
    );
    assert.match(
      t.assertions[3]!.message,
      /rendering failed: template haproxy\.cfg:\d+:\d+: service boom is not allowed/,
    );
  });

  it('writes the rendered files of each test under --dump-rendered at their paths relative to the base dir', () => {
    const base = join(dir, 'dump', 'all-pass');
    assert.match(readFileSync(join(base, 'haproxy.cfg'), 'utf8'), /^backend be_web$/m);
    assert.equal(
      readFileSync(join(base, 'maps', 'hosts.map'), 'utf8'),
      'api.example.com be_api\nweb.example.com be_web\n',
    );
    assert.ok(existsSync(join(base, 'certs', 'a.pem')));
    assert.ok(existsSync(join(base, 'files', 'note.txt')));
    assert.ok(existsSync(join(base, 'status-patches.json')));
  });

  it('runs only the selected tests and rejects an unknown test name', async () => {
    const run = await runValidationTests(renderer, {
      testNames: ['all-pass'],
      haproxyBin: () => fakeHaproxy,
    });
    assert.deepEqual(
      run.tests.map((t) => t.name),
      ['all-pass'],
    );
    await assert.rejects(
      runValidationTests(renderer, { testNames: ['nope'] }),
      /unknown validation test\(s\): nope/,
    );
  });
});

import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { parseTemplateConfigYaml } from '../../../src/templating/load-template-config.js';
import { TemplateConfigError } from '../../../src/templating/template-errors.js';

const HEAD = `apiVersion: haproxy-haptic.org/v1alpha1
kind: HAProxyTemplateConfig
metadata: { name: t }
spec:
  watchedResources:
    services: { apiVersion: v1, resources: services, indexBy: ["metadata.namespace", "metadata.name"] }
`;

function load(specTail: string) {
  return parseTemplateConfigYaml(`${HEAD}${specTail}`, 'test.yaml');
}

function rejects(specTail: string, message: RegExp): void {
  assert.throws(
    () => load(specTail),
    (err: unknown) => err instanceof TemplateConfigError && message.test(err.message),
  );
}

describe('parseTemplateConfig', () => {
  it('loads a minimal config with the default layout relative to the base directory', () => {
    const c = load('  haproxyConfig: { template: "global\\n" }\n');
    assert.equal(c.name, 't');
    assert.deepEqual(c.watchedResources['services']?.indexBy, [
      'metadata.namespace',
      'metadata.name',
    ]);
    assert.deepEqual(c.layout, {
      configFile: 'haproxy.cfg',
      mapsDir: 'maps',
      sslCertsDir: 'certs',
      generalStorageDir: 'files',
      crtListDir: 'crt-lists',
    });
  });

  it('accepts relative directory overrides in spec.dataplane', () => {
    const c = load(
      '  haproxyConfig: { template: "x" }\n  dataplane:\n    mapsDir: lookup/maps/\n    sslCertsDir: ./tls\n',
    );
    assert.equal(c.layout.mapsDir, 'lookup/maps');
    assert.equal(c.layout.sslCertsDir, 'tls');
    assert.equal(c.layout.crtListDir, 'crt-lists');
  });

  it('converts absolute directories below an absolute configFile to relative ones', () => {
    const c = load(
      '  haproxyConfig: { template: "x" }\n  dataplane:\n    configFile: /etc/haproxy/haproxy.cfg\n    mapsDir: /etc/haproxy/maps\n    generalStorageDir: /etc/haproxy/general/\n',
    );
    assert.equal(c.layout.configFile, 'haproxy.cfg');
    assert.equal(c.layout.mapsDir, 'maps');
    assert.equal(c.layout.generalStorageDir, 'general');
  });

  it('rejects a directory escaping the base directory with ".." naming the field', () => {
    rejects(
      '  haproxyConfig: { template: "x" }\n  dataplane:\n    mapsDir: maps/../../etc\n',
      /spec\.dataplane\.mapsDir: "maps\/\.\.\/\.\.\/etc" is not a directory below the base directory/,
    );
  });

  it('rejects an absolute directory when no absolute configFile names the base directory', () => {
    rejects(
      '  haproxyConfig: { template: "x" }\n  dataplane:\n    sslCertsDir: /etc/haproxy/ssl\n',
      /spec\.dataplane\.sslCertsDir: absolute path "\/etc\/haproxy\/ssl" is outside the base directory/,
    );
  });

  it("rejects an absolute directory outside the absolute configFile's directory naming the field", () => {
    rejects(
      '  haproxyConfig: { template: "x" }\n  dataplane:\n    configFile: /etc/haproxy/haproxy.cfg\n    crtListDir: /var/lib/lists\n',
      /spec\.dataplane\.crtListDir: "\/var\/lib\/lists" is not a directory below the base directory \/etc\/haproxy/,
    );
  });

  it('rejects a configFile that is not haproxy.cfg at the base directory root', () => {
    rejects(
      '  haproxyConfig: { template: "x" }\n  dataplane:\n    configFile: conf/haproxy.cfg\n',
      /spec\.dataplane\.configFile: haproxy\.cfg must sit at the base directory's root/,
    );
  });

  it('names the field path of a structural error', () => {
    rejects(
      '  haproxyConfig: { template: "x" }\n  maps:\n    host.map: { template: 3 }\n',
      /spec\.maps\["host\.map"\]\.template: must be a string/,
    );
  });

  it('requires haproxyConfig', () => {
    rejects('  maps: {}\n', /spec\.haproxyConfig: is required/);
  });

  it('rejects an include of an unknown snippet with its name and the including template', () => {
    rejects(
      '  haproxyConfig:\n    template: |\n      global\n      {% include "nope-snippet" %}\n',
      /template haproxy\.cfg:2: include of unknown snippet "nope-snippet"/,
    );
  });

  it('rejects an unknown assertion type with its name', () => {
    rejects(
      '  haproxyConfig: { template: "x" }\n  validationTests:\n    t1:\n      assertions: [ { type: looks_fine } ]\n',
      /spec\.validationTests\.t1\.assertions\[0\]\.type: unknown assertion type "looks_fine"/,
    );
  });

  it('rejects an unknown assertion target with its name', () => {
    rejects(
      '  haproxyConfig: { template: "x" }\n  validationTests:\n    t1:\n      assertions: [ { type: contains, pattern: x, target: "mapp:host.map" } ]\n',
      /unknown assertion target "mapp:host\.map"/,
    );
  });

  it('rejects a status target with an unknown phase', () => {
    rejects(
      '  haproxyConfig: { template: "x" }\n  validationTests:\n    t1:\n      assertions: [ { type: contains, pattern: x, target: "status:ns/n:applied" } ]\n',
      /unknown status phase "applied"/,
    );
  });

  it('accepts status targets for namespaced and cluster-scoped objects', () => {
    const c = load(
      '  haproxyConfig: { template: "x" }\n  validationTests:\n    t1:\n      assertions:\n        - { type: contains, pattern: x, target: "status:shop/web:deployed" }\n        - { type: contains, pattern: x, target: "status:haproxy:rendered" }\n',
    );
    assert.deepEqual(
      c.validationTests['t1']?.assertions.map((a) => a.target),
      [
        { kind: 'status', namespace: 'shop', name: 'web', phase: 'deployed' },
        { kind: 'status', namespace: '', name: 'haproxy', phase: 'rendered' },
      ],
    );
  });

  it('rejects an invalid regular expression in a pattern', () => {
    rejects(
      '  haproxyConfig: { template: "x" }\n  validationTests:\n    t1:\n      assertions: [ { type: contains, pattern: "a(" } ]\n',
      /assertions\[0\]\.pattern: invalid regular expression/,
    );
  });

  it('rejects fixtures for a resource that is not watched', () => {
    rejects(
      '  haproxyConfig: { template: "x" }\n  validationTests:\n    t1:\n      fixtures: { ingresses: [] }\n',
      /fixtures\.ingresses: unknown watched resource "ingresses"/,
    );
  });

  it('rejects extraContext keys that shadow built-in variables', () => {
    rejects(
      '  haproxyConfig: { template: "x" }\n  templatingSettings: { extraContext: { resources: 1 } }\n',
      /extraContext\.resources: shadows a built-in/,
    );
  });

  it('merges _global fixtures into each test, a test object replacing the global one with the same identity', () => {
    const c = load(`  haproxyConfig: { template: "x" }
  validationTests:
    _global:
      fixtures:
        services:
          - { apiVersion: v1, kind: Service, metadata: { namespace: a, name: web }, spec: { v: global } }
          - { apiVersion: v1, kind: Service, metadata: { namespace: a, name: db }, spec: { v: global } }
    t1:
      fixtures:
        services:
          - { apiVersion: v1, kind: Service, metadata: { namespace: a, name: web }, spec: { v: mine } }
          - { apiVersion: v1, kind: Service, metadata: { namespace: b, name: web }, spec: { v: mine } }
`);
    assert.deepEqual(Object.keys(c.validationTests), ['t1']);
    const services = c.validationTests['t1']?.fixtures['services'] ?? [];
    const summary = services.map(
      (s) =>
        `${(s['metadata'] as { namespace: string; name: string }).namespace}/${(s['metadata'] as { name: string }).name}=${(s['spec'] as { v: string }).v}`,
    );
    assert.deepEqual(summary, ['a/db=global', 'a/web=mine', 'b/web=mine']);
  });

  it('reports invalid YAML with the file name', () => {
    assert.throws(() => parseTemplateConfigYaml('a: [', 'bad.yaml'), /bad\.yaml: invalid YAML/);
  });
});

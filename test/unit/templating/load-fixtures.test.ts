import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { parseFixturesYaml, routeFixtures } from '../../../src/templating/load-fixtures.js';
import { parseTemplateConfig } from '../../../src/templating/parse-template-config.js';
import { FixturesError } from '../../../src/templating/template-errors.js';

const config = parseTemplateConfig({
  apiVersion: 'haproxy-haptic.org/v1alpha1',
  kind: 'HAProxyTemplateConfig',
  spec: {
    watchedResources: {
      ingresses: { apiVersion: 'networking.k8s.io/v1', resources: 'ingresses' },
      classes: { apiVersion: 'gateway.networking.k8s.io/v1', resources: 'gatewayclasses' },
      policies: { apiVersion: 'example.com/v1', resources: 'policies' },
    },
    haproxyConfig: { template: 'global' },
  },
});

describe('fixtures loading', () => {
  it('routes objects by apiVersion and kind, expanding Lists and sending unwatched Pods to haproxy-pods', () => {
    const objects = parseFixturesYaml(
      [
        'apiVersion: v1\nkind: List\nitems:\n  - { apiVersion: networking.k8s.io/v1, kind: Ingress, metadata: { name: a } }\n  - { apiVersion: example.com/v1, kind: Policy, metadata: { name: p } }',
        'apiVersion: gateway.networking.k8s.io/v1\nkind: GatewayClass\nmetadata: { name: haproxy }',
        'apiVersion: v1\nkind: Pod\nmetadata: { name: haproxy-0, namespace: haptic }',
        '',
      ].join('\n---\n'),
      'f.yaml',
    );
    const routed = routeFixtures(config, objects, 'f.yaml');
    assert.deepEqual(Object.fromEntries(Object.entries(routed).map(([k, v]) => [k, v.length])), {
      ingresses: 1,
      policies: 1,
      classes: 1,
      'haproxy-pods': 1,
    });
  });

  it('rejects an object whose apiVersion matches no watched resource, naming it', () => {
    const objects = parseFixturesYaml(
      'apiVersion: networking.k8s.io/v1beta1\nkind: Ingress\nmetadata: { name: old, namespace: x }\n',
      'f.yaml',
    );
    assert.throws(
      () => routeFixtures(config, objects, 'f.yaml'),
      (e: unknown) => e instanceof FixturesError && /object #1 \(Ingress x\/old\)/.test(e.message),
    );
  });

  it('rejects documents that are not objects', () => {
    assert.throws(
      () => parseFixturesYaml('- a\n- b\n', 'f.yaml'),
      /f\.yaml document #1: must be a Kubernetes object/,
    );
  });
});

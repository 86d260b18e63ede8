import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { Value } from 'typebox/value';
import { ConditionSchema, type Condition } from '../../../../src/k8s/crds/condition-schema.js';
import type { CustomResourceDefinition } from '../../../../src/k8s/crds/custom-resource.js';
import {
  HAProxyCfgSpecSchema,
  HAProxyCfgStatusSchema,
  type HAProxyCfg,
} from '../../../../src/k8s/crds/haproxy-cfg.js';
import {
  HAProxyTemplateConfigSpecSchema,
  type HAProxyTemplateConfigSpec,
} from '../../../../src/k8s/crds/haproxy-template-config.js';
import { lintCrd, type CrdFinding } from '../../../../src/k8s/crds/lint-crd.js';
import { projectCrds } from '../../../../src/k8s/crds/project-crds.js';

type Node = Record<string, any>;

function clone(crd: CustomResourceDefinition): CustomResourceDefinition {
  return structuredClone(crd);
}

function schemaOf(crd: CustomResourceDefinition): Node {
  return crd.spec.versions[0]!.schema.openAPIV3Schema;
}

function byKind(kind: string): CustomResourceDefinition {
  const crd = projectCrds().find((c) => c.spec.names.kind === kind);
  assert.ok(crd, kind);
  return crd;
}

function rules(findings: CrdFinding[]): string[] {
  return findings.map((f) => `${f.rule} ${f.path}`);
}

const CONDITION: Condition = {
  type: 'ConfigValidated',
  status: 'True',
  observedGeneration: 3,
  lastTransitionTime: '2026-01-02T03:04:05Z',
  reason: 'Valid',
  message: '',
};

describe('project CRDs', () => {
  it('are the five kinds of group haproxy-haptic.org v1alpha1 with their short names', () => {
    const crds = projectCrds();
    assert.deepEqual(
      crds.map((c) => [c.metadata.name, c.spec.names.shortNames]),
      [
        ['haproxytemplateconfigs.haproxy-haptic.org', ['htplcfg', 'haptpl']],
        ['haproxycfgs.haproxy-haptic.org', ['hpcfg']],
        ['haproxymapfiles.haproxy-haptic.org', ['hpmap']],
        ['haproxygeneralfiles.haproxy-haptic.org', ['hpgf']],
        ['haproxycrtlistfiles.haproxy-haptic.org', ['hpcl']],
      ],
    );
    for (const crd of crds) {
      assert.equal(crd.spec.group, 'haproxy-haptic.org');
      assert.equal(crd.spec.scope, 'Namespaced');
      assert.deepEqual(
        crd.spec.versions.map((v) => [v.name, v.served, v.storage, v.subresources]),
        [['v1alpha1', true, true, { status: {} }]],
      );
    }
  });

  it('pass the lint: structural, explicit list types, required map keys, full conditions, no status defaults', () => {
    for (const crd of projectCrds()) assert.deepEqual(lintCrd(crd), [], crd.metadata.name);
  });

  it('carry printer columns Status for the config and Checksum and Size for HAProxyCfg', () => {
    const columns = (kind: string) =>
      byKind(kind).spec.versions[0]!.additionalPrinterColumns.map((c) => `${c.name}=${c.jsonPath}`);
    assert.deepEqual(columns('HAProxyTemplateConfig'), [
      'Status=.status.validationStatus',
      'Age=.metadata.creationTimestamp',
    ]);
    assert.deepEqual(columns('HAProxyCfg'), [
      'Checksum=.spec.checksum',
      'Size=.status.metadata.totalSize',
      'Age=.metadata.creationTimestamp',
    ]);
  });

  it('key HAProxyCfg status.deployedToPods by pod name and conditions by type', () => {
    const status = schemaOf(byKind('HAProxyCfg'))['properties']['status'];
    const pods = status['properties']['deployedToPods'];
    assert.equal(pods['x-kubernetes-list-type'], 'map');
    assert.deepEqual(pods['x-kubernetes-list-map-keys'], ['podName']);
    assert.ok(pods['items']['required'].includes('podName'));
    const conditions = status['properties']['conditions'];
    assert.equal(conditions['x-kubernetes-list-type'], 'map');
    assert.deepEqual(conditions['x-kubernetes-list-map-keys'], ['type']);
    for (const kind of ['HAProxyMapFile', 'HAProxyGeneralFile', 'HAProxyCRTListFile']) {
      const s = schemaOf(byKind(kind))['properties']['status']['properties'];
      assert.deepEqual(s['deployedToPods']['x-kubernetes-list-map-keys'], ['podName'], kind);
      assert.deepEqual(s['conditions']['x-kubernetes-list-map-keys'], ['type'], kind);
    }
  });

  it('emit Kubernetes spellings: additionalProperties for maps, enum for unions, preserve-unknown-fields for free data', () => {
    const spec = schemaOf(byKind('HAProxyTemplateConfig'))['properties']['spec'];
    const text = JSON.stringify(spec);
    assert.ok(!text.includes('patternProperties'));
    assert.ok(!text.includes('"const"'));
    assert.ok(!text.includes('anyOf'));
    assert.equal(spec['properties']['watchedResources']['type'], 'object');
    assert.equal(
      spec['properties']['watchedResources']['additionalProperties']['properties']['resources'][
        'type'
      ],
      'string',
    );
    assert.equal(
      spec['properties']['templatingSettings']['properties']['extraContext'][
        'x-kubernetes-preserve-unknown-fields'
      ],
      true,
    );
  });

  it('hold no private key material in any CRD', () => {
    for (const crd of projectCrds()) {
      assert.doesNotMatch(JSON.stringify(schemaOf(crd)), /privateKey|tls\.key/i, crd.metadata.name);
    }
  });
});

describe('lintCrd finds broken schemas', () => {
  it('reports a status list without x-kubernetes-list-type', () => {
    const crd = clone(byKind('HAProxyTemplateConfig'));
    delete schemaOf(crd)['properties']['status']['properties']['validationErrors'][
      'x-kubernetes-list-type'
    ];
    assert.deepEqual(rules(lintCrd(crd)), ['list-type .status.validationErrors']);
  });

  it('reports a list-map key that is not a required property', () => {
    const crd = clone(byKind('HAProxyCfg'));
    const items = schemaOf(crd)['properties']['status']['properties']['deployedToPods']['items'];
    items['required'] = items['required'].filter((r: string) => r !== 'podName');
    assert.deepEqual(rules(lintCrd(crd)), ['list-map-keys .status.deployedToPods']);
  });

  it('reports conditions that are atomic or lack parts of the condition schema', () => {
    const crd = clone(byKind('HAProxyMapFile'));
    const conditions = schemaOf(crd)['properties']['status']['properties']['conditions'];
    conditions['x-kubernetes-list-type'] = 'atomic';
    delete conditions['x-kubernetes-list-map-keys'];
    delete conditions['items']['properties']['reason']['pattern'];
    assert.deepEqual(rules(lintCrd(crd)), [
      'conditions .status.conditions',
      'conditions .status.conditions',
    ]);
  });

  it('reports a default on a status list', () => {
    const crd = clone(byKind('HAProxyGeneralFile'));
    schemaOf(crd)['properties']['status']['properties']['deployedToPods']['default'] = [];
    assert.deepEqual(rules(lintCrd(crd)), ['status-default .status.deployedToPods']);
  });

  it('reports untyped nodes, objects without properties and non-structural keywords', () => {
    const crd = clone(byKind('HAProxyCRTListFile'));
    const props = schemaOf(crd)['properties']['spec']['properties'];
    props['untyped'] = { description: 'no type' };
    props['empty'] = { type: 'object' };
    props['record'] = { type: 'object', patternProperties: { '^.*$': { type: 'string' } } };
    assert.deepEqual(rules(lintCrd(crd)), [
      'structural-type .spec.untyped',
      'structural-object .spec.empty',
      'unsupported-keyword .spec.record',
      'structural-object .spec.record',
    ]);
  });

  it('reports private key fields, unknown required names and printer columns naming no field', () => {
    const crd = clone(byKind('HAProxyCfg'));
    const spec = schemaOf(crd)['properties']['spec'];
    spec['properties']['privateKey'] = { type: 'string' };
    spec['required'].push('nope');
    (crd.spec.versions[0]!.additionalPrinterColumns as unknown[]).push({
      name: 'Bad',
      type: 'string',
      jsonPath: '.spec.missing',
    });
    assert.deepEqual(rules(lintCrd(crd)), [
      'required-unknown .spec',
      'secret-material .spec.privateKey',
      'printer-column .spec.missing',
    ]);
  });
});

describe('TypeBox schemas as TypeScript types and validators', () => {
  it('accept a full condition and reject a bad reason, status, type or timestamp', () => {
    assert.equal(Value.Check(ConditionSchema, CONDITION), true);
    for (const bad of [
      { reason: 'not one word' },
      { reason: '' },
      { status: 'Maybe' },
      { type: 'has space' },
      { lastTransitionTime: 'yesterday' },
      { observedGeneration: -1 },
    ]) {
      assert.equal(
        Value.Check(ConditionSchema, { ...CONDITION, ...bad }),
        false,
        JSON.stringify(bad),
      );
    }
  });

  it('type and validate an HAProxyCfg with per-pod status', () => {
    const cfg: HAProxyCfg = {
      apiVersion: 'haproxy-haptic.org/v1alpha1',
      kind: 'HAProxyCfg',
      metadata: { name: 'haproxy-cfg', namespace: 'haptic' },
      spec: {
        path: 'haproxy.cfg',
        content: 'global\n',
        checksum: `sha256:${'a'.repeat(64)}`,
      },
      status: {
        deployedToPods: [{ podName: 'haproxy-0', deployedAt: '2026-01-02T03:04:05Z' }],
        conditions: [CONDITION],
      },
    };
    assert.equal(Value.Check(HAProxyCfgSpecSchema, cfg.spec), true);
    assert.equal(Value.Check(HAProxyCfgStatusSchema, cfg.status), true);
    assert.equal(Value.Check(HAProxyCfgSpecSchema, { ...cfg.spec, checksum: 'md5:x' }), false);
  });

  it('type and validate a minimal HAProxyTemplateConfig spec', () => {
    const spec: HAProxyTemplateConfigSpec = {
      credentialsSecretRef: { name: 'haptic-credentials' },
      podSelector: { matchLabels: { 'app.kubernetes.io/component': 'loadbalancer' } },
      watchedResources: {
        ingresses: {
          apiVersion: 'networking.k8s.io/v1',
          resources: 'ingresses',
          indexBy: ['metadata.namespace', 'metadata.name'],
        },
      },
      haproxyConfig: { template: 'global\n' },
      validationTests: {
        basic: {
          fixtures: { ingresses: [{ apiVersion: 'networking.k8s.io/v1', kind: 'Ingress' }] },
          assertions: [{ type: 'haproxy_valid' }],
        },
      },
    };
    assert.equal(Value.Check(HAProxyTemplateConfigSpecSchema, spec), true);
    assert.equal(
      Value.Check(HAProxyTemplateConfigSpecSchema, { ...spec, watchedResources: {} }),
      false,
    );
  });
});

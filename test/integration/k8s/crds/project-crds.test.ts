import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { runCli } from '../../../../src/cli/program.js';
import type { KubeClient } from '../../../../src/k8s/client/kube-client.js';
import { InvalidError } from '../../../../src/k8s/client/kube-errors.js';
import type { Condition } from '../../../../src/k8s/crds/condition-schema.js';
import type { HAProxyCfg } from '../../../../src/k8s/crds/haproxy-cfg.js';
import type { HAProxyCRTListFile } from '../../../../src/k8s/crds/haproxy-crt-list-file.js';
import type { HAProxyGeneralFile } from '../../../../src/k8s/crds/haproxy-general-file.js';
import type { HAProxyMapFile } from '../../../../src/k8s/crds/haproxy-map-file.js';
import type { HAProxyTemplateConfig } from '../../../../src/k8s/crds/haproxy-template-config.js';
import { projectCrds } from '../../../../src/k8s/crds/project-crds.js';
import { ControlPlane } from '../../../../src/testing/control-plane.js';

const NS = 'default';
const GROUP_PATH = `/apis/haproxy-haptic.org/v1alpha1/namespaces/${NS}`;
const CHECKSUM = `sha256:${'0123456789abcdef'.repeat(4)}`;
const CONDITION: Condition = {
  type: 'ConfigValidated',
  status: 'True',
  observedGeneration: 1,
  lastTransitionTime: '2026-01-02T03:04:05Z',
  reason: 'Valid',
  message: 'validated',
};

interface Live {
  metadata: {
    name: string;
    resourceVersion: string;
    managedFields?: { manager: string; operation: string; subresource?: string }[];
  };
  spec: unknown;
  status?: Record<string, unknown>;
}

async function cli(args: string[]): Promise<{ code: number; out: string; err: string }> {
  let out = '';
  let err = '';
  const code = await runCli(['node', 'haptic', ...args], AbortSignal.timeout(60_000), {
    out: (t) => (out += t),
    err: (t) => (err += t),
  });
  return { code, out, err };
}

const OBJECTS: { plural: string; object: Record<string, unknown> }[] = [
  {
    plural: 'haproxytemplateconfigs',
    object: {
      apiVersion: 'haproxy-haptic.org/v1alpha1',
      kind: 'HAProxyTemplateConfig',
      metadata: { name: 'haptic-config', namespace: NS },
      spec: {
        credentialsSecretRef: { name: 'haptic-credentials' },
        podSelector: { matchLabels: { 'app.kubernetes.io/component': 'loadbalancer' } },
        watchedResources: {
          ingresses: {
            apiVersion: 'networking.k8s.io/v1',
            resources: 'ingresses',
            indexBy: ['metadata.namespace', 'metadata.name'],
            store: 'full',
          },
        },
        watchedResourcesIgnoreFields: ['metadata.managedFields'],
        haproxyConfig: {
          template: 'global\n  daemon\n',
          postProcessing: [{ type: 'regex_replace', params: { pattern: ' +$', replace: '' } }],
        },
        maps: { 'hosts.map': { template: '{{ 1 }}' } },
        templatingSettings: { extraContext: { debug: { enabled: true }, answer: 42 } },
        validationTests: {
          basic: {
            fixtures: {
              ingresses: [
                { apiVersion: 'networking.k8s.io/v1', kind: 'Ingress', metadata: { name: 'a' } },
              ],
            },
            assertions: [{ type: 'contains', target: 'haproxy.cfg', pattern: 'daemon' }],
          },
        },
        validators: [{ name: 'spoe', socketPath: '/run/v.sock', timeoutMs: 5000 }],
        controller: { leaderElection: { enabled: true, leaseDuration: '15s' } },
        dataplane: { port: 5555, minDeploymentInterval: '2s' },
      },
    } satisfies HAProxyTemplateConfig,
  },
  {
    plural: 'haproxycfgs',
    object: {
      apiVersion: 'haproxy-haptic.org/v1alpha1',
      kind: 'HAProxyCfg',
      metadata: { name: 'haptic-config-haproxycfg', namespace: NS },
      spec: { path: 'haproxy.cfg', content: 'global\n', checksum: CHECKSUM },
    } satisfies HAProxyCfg,
  },
  {
    plural: 'haproxymapfiles',
    object: {
      apiVersion: 'haproxy-haptic.org/v1alpha1',
      kind: 'HAProxyMapFile',
      metadata: { name: 'hosts-map', namespace: NS },
      spec: {
        mapName: 'hosts.map',
        path: 'maps/hosts.map',
        entries: 'example.com be_web\n',
        checksum: CHECKSUM,
      },
    } satisfies HAProxyMapFile,
  },
  {
    plural: 'haproxygeneralfiles',
    object: {
      apiVersion: 'haproxy-haptic.org/v1alpha1',
      kind: 'HAProxyGeneralFile',
      metadata: { name: 'error-503', namespace: NS },
      spec: {
        fileName: '503.http',
        path: 'files/503.http',
        content: 'HTTP/1.0 503\r\n\r\n',
        checksum: CHECKSUM,
        compressed: false,
      },
    } satisfies HAProxyGeneralFile,
  },
  {
    plural: 'haproxycrtlistfiles',
    object: {
      apiVersion: 'haproxy-haptic.org/v1alpha1',
      kind: 'HAProxyCRTListFile',
      metadata: { name: 'certs-list', namespace: NS },
      spec: {
        listName: 'certs.list',
        path: 'crt-lists/certs.list',
        entries: 'certs/example.pem example.com\n',
        checksum: CHECKSUM,
      },
    } satisfies HAProxyCRTListFile,
  },
];

/** The spec the server stores: as sent, plus the schema's defaults (validator maxConnections). */
function expectedSpec(object: Record<string, unknown>): unknown {
  const spec = structuredClone(object['spec']) as { validators?: Record<string, unknown>[] };
  for (const v of spec.validators ?? []) v['maxConnections'] ??= 4;
  return spec;
}

describe('project CRDs in a real kube-apiserver', { timeout: 120_000 }, () => {
  let cp: ControlPlane;
  let client: KubeClient;

  before(async () => {
    cp = await ControlPlane.start({ installProjectCrds: false });
    client = cp.client('admin');
  });

  after(async () => {
    client.close();
    await cp.stop();
  });

  const crdPath = (name: string) =>
    `/apis/apiextensions.k8s.io/v1/customresourcedefinitions/${name}`;

  it('haptic crds apply installs every CRD with field manager haptic-crd-installer and waits until Established', async () => {
    const result = await cli(['crds', 'apply', '--kubeconfig', cp.kubeconfigPath]);
    assert.equal(result.err, '');
    assert.equal(result.code, 0);
    const names = projectCrds().map((c) => c.metadata.name);
    assert.equal(
      result.out,
      names.map((n) => `customresourcedefinition/${n} established\n`).join(''),
    );
    for (const name of names) {
      const live = await client.request<{
        metadata: Live['metadata'];
        status: { conditions: { type: string; status: string }[] };
      }>({ method: 'GET', path: crdPath(name) });
      assert.ok(
        live.status.conditions.some((c) => c.type === 'Established' && c.status === 'True'),
        name,
      );
      assert.deepEqual(
        live.metadata.managedFields
          ?.filter((m) => m.subresource === undefined)
          .map((m) => [m.manager, m.operation]),
        [['haptic-crd-installer', 'Apply']],
      );
    }
  });

  it('a second haptic crds apply changes nothing (resourceVersion unchanged)', async () => {
    const name = 'haproxycfgs.haproxy-haptic.org';
    const before = await client.request<Live>({ method: 'GET', path: crdPath(name) });
    const result = await cli(['crds', 'apply', '--kubeconfig', cp.kubeconfigPath]);
    assert.equal(result.code, 0);
    const after = await client.request<Live>({ method: 'GET', path: crdPath(name) });
    assert.equal(after.metadata.resourceVersion, before.metadata.resourceVersion);
  });

  it('haptic crds apply as a user without RBAC fails with an actionable Forbidden message', async () => {
    const result = await cli([
      'crds',
      'apply',
      '--kubeconfig',
      cp.kubeconfigPath,
      '--context',
      'restricted',
    ]);
    assert.equal(result.code, 1);
    assert.match(result.err, /forbidden/i);
    assert.match(result.err, /grant the permission/);
  });

  it('round-trips a valid object of each kind without pruning any field', async () => {
    for (const { plural, object } of OBJECTS) {
      const created = await client.request<Live>({
        method: 'POST',
        path: `${GROUP_PATH}/${plural}`,
        body: object,
      });
      const read = await client.request<Live>({
        method: 'GET',
        path: `${GROUP_PATH}/${plural}/${created.metadata.name}`,
      });
      assert.deepEqual(read.spec, expectedSpec(object), plural);
    }
  });

  it('accepts status through the status subresource and keeps per-pod entries of two managers apart', async () => {
    const path = `${GROUP_PATH}/haproxycfgs/haptic-config-haproxycfg/status`;
    const apply = (manager: string, status: Record<string, unknown>) =>
      client.request<Live>({
        method: 'PATCH',
        path,
        query: { fieldManager: manager, force: 'true' },
        contentType: 'application/apply-patch+yaml',
        body: {
          apiVersion: 'haproxy-haptic.org/v1alpha1',
          kind: 'HAProxyCfg',
          metadata: { name: 'haptic-config-haproxycfg', namespace: NS },
          status,
        },
      });
    await apply('pod-a', {
      deployedToPods: [{ podName: 'haproxy-0', deployedAt: '2026-01-02T03:04:05Z' }],
    });
    await apply('pod-b', {
      deployedToPods: [{ podName: 'haproxy-1', deployedAt: '2026-01-02T03:04:06Z' }],
    });
    const live = await apply('verdict', { conditions: [CONDITION] });
    assert.deepEqual(
      (live.status?.['deployedToPods'] as { podName: string }[]).map((p) => p.podName).sort(),
      ['haproxy-0', 'haproxy-1'],
    );
    assert.deepEqual(live.status?.['conditions'], [CONDITION]);
  });

  it('rejects a condition with a bad reason, an unknown status or a duplicate type', async () => {
    const path = `${GROUP_PATH}/haproxymapfiles/hosts-map/status`;
    const write = (conditions: unknown[]) =>
      client.request({
        method: 'PATCH',
        path,
        query: { fieldManager: 'verdict-test' },
        contentType: 'application/merge-patch+json',
        body: { status: { conditions } },
      });
    await assert.rejects(write([{ ...CONDITION, reason: 'not a reason' }]), (err: unknown) => {
      assert.ok(err instanceof InvalidError);
      assert.equal(err.statusCode, 422);
      assert.match(err.message, /reason/);
      return true;
    });
    await assert.rejects(write([{ ...CONDITION, status: 'Maybe' }]), InvalidError);
    await assert.rejects(write([CONDITION, { ...CONDITION, reason: 'Other' }]), (err: unknown) => {
      assert.ok(err instanceof InvalidError);
      assert.match(err.message, /[Dd]uplicate/);
      return true;
    });
    await write([CONDITION]);
  });

  it('rejects objects that break the spec schema: bad checksum, missing required field, unknown enum value', async () => {
    const base = OBJECTS[1]!.object;
    const create = (plural: string, object: Record<string, unknown>) =>
      client.request({ method: 'POST', path: `${GROUP_PATH}/${plural}`, body: object });
    await assert.rejects(
      create('haproxycfgs', {
        ...base,
        metadata: { name: 'bad-checksum', namespace: NS },
        spec: { path: '/x', content: 'global\n', checksum: 'md5:abc' },
      }),
      (err: unknown) => err instanceof InvalidError && /checksum/.test(err.message),
    );
    await assert.rejects(
      create('haproxycfgs', {
        ...base,
        metadata: { name: 'no-content', namespace: NS },
        spec: { path: '/x', checksum: CHECKSUM },
      }),
      (err: unknown) => err instanceof InvalidError && /content/.test(err.message),
    );
    const config = OBJECTS[0]!.object as unknown as HAProxyTemplateConfig;
    await assert.rejects(
      create('haproxytemplateconfigs', {
        ...config,
        metadata: { name: 'bad-store', namespace: NS },
        spec: {
          ...config.spec,
          watchedResources: { svc: { apiVersion: 'v1', resources: 'services', store: 'disk' } },
        },
      }),
      (err: unknown) => err instanceof InvalidError && /store/.test(err.message),
    );
  });
});

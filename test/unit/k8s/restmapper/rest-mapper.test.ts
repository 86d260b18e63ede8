import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { KubeRequest, KubeRequester } from '../../../../src/k8s/client/kube-client.js';
import { UnknownKindError } from '../../../../src/k8s/restmapper/rest-mapper-errors.js';
import { RestMapper } from '../../../../src/k8s/restmapper/rest-mapper.js';

interface FakeResource {
  readonly name: string;
  readonly kind: string;
  readonly namespaced: boolean;
  readonly verbs?: string[];
}

/** Answers discovery from an in-memory table of group-versions; everything else is a 404. */
class FakeDiscovery implements KubeRequester {
  readonly groupVersions = new Map<string, FakeResource[]>();
  readonly failing = new Set<string>();
  discoveryReads = 0;

  request<T>(req: KubeRequest): Promise<T> {
    try {
      return Promise.resolve(this.answer(req.path) as T);
    } catch (err) {
      return Promise.reject(err instanceof Error ? err : new Error(String(err)));
    }
  }

  private answer(path: string): unknown {
    if (path === '/api') {
      this.discoveryReads++;
      return { versions: [...this.groupVersions.keys()].filter((gv) => !gv.includes('/')) };
    }
    if (path === '/apis') {
      const groups = new Map<string, string[]>();
      for (const gv of this.groupVersions.keys()) {
        const slash = gv.indexOf('/');
        if (slash < 0) continue;
        const g = gv.slice(0, slash);
        groups.set(g, [...(groups.get(g) ?? []), gv]);
      }
      return {
        groups: [...groups].map(([name, gvs]) => ({
          name,
          versions: gvs.map((groupVersion) => ({ groupVersion })),
          preferredVersion: { groupVersion: gvs[0] },
        })),
      };
    }
    const gv = path.replace(/^\/apis?\//, '');
    if (this.failing.has(gv)) throw new Error(`discovery of ${gv} failed`);
    const resources = this.groupVersions.get(gv);
    if (!resources) throw new Error(`no ${path}`);
    return {
      groupVersion: gv,
      resources: resources.map((r) => ({
        name: r.name,
        kind: r.kind,
        namespaced: r.namespaced,
        verbs: r.verbs ?? ['get', 'list', 'watch'],
      })),
    };
  }
}

function cluster(): FakeDiscovery {
  const fake = new FakeDiscovery();
  fake.groupVersions.set('v1', [
    { name: 'configmaps', kind: 'ConfigMap', namespaced: true },
    { name: 'namespaces', kind: 'Namespace', namespaced: false },
    { name: 'namespaces/status', kind: 'Namespace', namespaced: false },
  ]);
  fake.groupVersions.set('zoo.example.com/v1', [
    { name: 'octopodes', kind: 'Octopus', namespaced: true, verbs: ['get', 'patch'] },
    { name: 'octopodes/status', kind: 'Octopus', namespaced: true },
  ]);
  return fake;
}

describe('RestMapper with a fake discovery', () => {
  it('returns the resource descriptor with scope, status subresource and verbs', async () => {
    const mapper = new RestMapper(cluster());
    assert.deepEqual(await mapper.mapping('zoo.example.com/v1', 'Octopus'), {
      group: 'zoo.example.com',
      version: 'v1',
      resource: 'octopodes',
      namespaced: true,
      kind: 'Octopus',
      hasStatus: true,
      verbs: ['get', 'patch'],
    });
    const ns = await mapper.mapping('v1', 'Namespace');
    assert.deepEqual(
      [ns.group, ns.version, ns.resource, ns.namespaced, ns.hasStatus],
      ['', 'v1', 'namespaces', false, true],
    );
    const cm = await mapper.mapping('v1', 'ConfigMap');
    assert.equal(cm.hasStatus, false);
  });

  it('throws UnknownKindError for an unknown kind instead of guessing a plural', async () => {
    const mapper = new RestMapper(cluster());
    await assert.rejects(mapper.mapping('v1', 'Octopus'), UnknownKindError);
  });

  it('refreshes once on a miss, at most once per minRefreshIntervalMs', async () => {
    const fake = cluster();
    let now = 0;
    const mapper = new RestMapper(fake, { minRefreshIntervalMs: 1000, now: () => now });
    await mapper.mapping('v1', 'ConfigMap');
    await assert.rejects(mapper.mapping('v1', 'Secret'), UnknownKindError);
    await assert.rejects(mapper.mapping('v1', 'Secret'), UnknownKindError);
    assert.equal(fake.discoveryReads, 1, 'misses within the interval do not re-read');
    fake.groupVersions.get('v1')?.push({ name: 'secrets', kind: 'Secret', namespaced: true });
    now = 1000;
    assert.equal((await mapper.mapping('v1', 'Secret')).resource, 'secrets');
    assert.equal(fake.discoveryReads, 2);
  });

  it('drops a kind whose group went away on refresh', async () => {
    const fake = cluster();
    const mapper = new RestMapper(fake);
    await mapper.refresh();
    assert.equal(mapper.kindsOfGroup('zoo.example.com').length, 1);
    fake.groupVersions.delete('zoo.example.com/v1');
    await mapper.refresh();
    assert.equal(mapper.cached('zoo.example.com/v1', 'Octopus'), undefined);
    assert.deepEqual(mapper.kindsOfGroup('zoo.example.com'), []);
  });

  it('keeps every other kind and reports the error when one group-version fails', async () => {
    const fake = cluster();
    fake.failing.add('zoo.example.com/v1');
    const errors: unknown[] = [];
    const mapper = new RestMapper(fake, { onError: (e) => errors.push(e) });
    assert.equal((await mapper.mapping('v1', 'ConfigMap')).resource, 'configmaps');
    assert.equal(errors.length, 1);
    assert.match(String(errors[0]), /zoo\.example\.com\/v1/);
  });

  it('shares one discovery read between concurrent refreshes', async () => {
    const fake = cluster();
    const mapper = new RestMapper(fake);
    await Promise.all([mapper.refresh(), mapper.refresh(), mapper.refresh()]);
    assert.equal(fake.discoveryReads, 1);
    assert.equal(mapper.refreshCount, 1);
  });
});

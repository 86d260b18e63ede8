import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import type { KubeClient } from '../../../src/k8s/client/kube-client.js';
import { ControlPlane } from '../../../src/testing/control-plane.js';
import { ensureHaproxy } from '../../../src/testing/haproxy-install.js';
import { testCrd } from '../../support/probe-crds.js';

// Foundation smoke tests (issue 2, deliverable 4): the real control plane runs, list-map
// conditions keep two writers apart, watches deliver, and haproxy -c is usable.

const GROUP = 'smoke.haptic.io';

const smokeCrd = testCrd({ group: GROUP, plural: 'smokes', kind: 'Smoke' });

interface Condition {
  type: string;
  status: string;
}
interface Smoke {
  metadata: {
    name: string;
    resourceVersion: string;
    managedFields?: { manager: string; operation: string; subresource?: string }[];
  };
  status?: { conditions?: Condition[] };
}

const base = `/apis/${GROUP}/v1/namespaces/default/smokes`;

function condition(type: string): Record<string, string> {
  return {
    type,
    status: 'True',
    reason: 'Smoke',
    message: '',
    lastTransitionTime: '2026-01-01T00:00:00Z',
  };
}

describe('foundation smoke: real kube-apiserver', () => {
  let cp: ControlPlane | undefined;
  let client: KubeClient | undefined;

  before(async () => {
    cp = await ControlPlane.start({ crds: [smokeCrd] });
    client = cp.client('admin');
  });
  after(async () => {
    client?.close();
    await cp?.stop();
  });

  it('reports the kube-apiserver version it runs against', async () => {
    assert.ok(cp);
    const version = await cp.version();
    console.log('# kube-apiserver ' + version);
    assert.match(version, /^v1\.\d+\.\d+/);
  });

  it('keeps the conditions of two field managers applied to /status', async () => {
    assert.ok(client);
    await client.request({
      method: 'POST',
      path: base,
      body: { apiVersion: `${GROUP}/v1`, kind: 'Smoke', metadata: { name: 'two' }, spec: {} },
    });
    const apply = (manager: string, type: string): Promise<Smoke> =>
      (client as KubeClient).request<Smoke>({
        method: 'PATCH',
        path: `${base}/two/status`,
        query: { fieldManager: manager, force: 'true' },
        contentType: 'application/apply-patch+yaml',
        body: {
          apiVersion: `${GROUP}/v1`,
          kind: 'Smoke',
          metadata: { name: 'two' },
          status: { conditions: [condition(type)] },
        },
      });
    await apply('writer-a', 'Accepted');
    const after = await apply('writer-b', 'Programmed');
    const types = (after.status?.conditions ?? []).map((c) => c.type).sort();
    assert.deepEqual(types, ['Accepted', 'Programmed']);
    const appliers = (after.metadata.managedFields ?? [])
      .filter((m) => m.operation === 'Apply' && m.subresource === 'status')
      .map((m) => m.manager)
      .sort();
    assert.deepEqual(appliers, ['writer-a', 'writer-b']);
  });

  it('delivers a status change to a watch on the custom resource', async () => {
    assert.ok(client);
    const created = await client.request<Smoke>({
      method: 'POST',
      path: base,
      body: { apiVersion: `${GROUP}/v1`, kind: 'Smoke', metadata: { name: 'watched' }, spec: {} },
    });
    const ac = new AbortController();
    const res = await client.stream({
      method: 'GET',
      path: base,
      query: {
        watch: 'true',
        resourceVersion: created.metadata.resourceVersion,
        fieldSelector: 'metadata.name=watched',
        timeoutSeconds: '30',
      },
      signal: ac.signal,
    });
    try {
      const seen = new Promise<{ type: string; object: Smoke }>((resolve, reject) => {
        let buf = '';
        res.on('data', (chunk: Buffer) => {
          buf += chunk.toString('utf8');
          let nl: number;
          while ((nl = buf.indexOf('\n')) >= 0) {
            const line = buf.slice(0, nl);
            buf = buf.slice(nl + 1);
            if (!line.trim()) continue;
            const ev = JSON.parse(line) as { type: string; object: Smoke };
            if (ev.type === 'MODIFIED') resolve(ev);
          }
        });
        res.on('error', reject);
        res.on('end', () => {
          reject(new Error('watch ended before the MODIFIED event'));
        });
      });
      await client.request({
        method: 'PATCH',
        path: `${base}/watched/status`,
        query: { fieldManager: 'writer-a', force: 'true' },
        contentType: 'application/apply-patch+yaml',
        body: {
          apiVersion: `${GROUP}/v1`,
          kind: 'Smoke',
          metadata: { name: 'watched' },
          status: { conditions: [condition('Ready')] },
        },
      });
      const ev = await seen;
      assert.equal(ev.object.metadata.name, 'watched');
      assert.deepEqual(
        (ev.object.status?.conditions ?? []).map((c) => c.type),
        ['Ready'],
      );
    } finally {
      ac.abort();
      res.destroy();
    }
  });
});

describe('foundation smoke: haproxy -c', () => {
  let bin = '';
  let dir = '';
  before(() => {
    bin = ensureHaproxy();
    dir = mkdtempSync(join(tmpdir(), 'haptic-smoke-'));
  });
  after(() => {
    rmSync(dir, { recursive: true, force: true });
  });

  const check = (text: string): { status: number | null; output: string } => {
    const file = join(dir, 'haproxy.cfg');
    writeFileSync(file, text);
    const r = spawnSync(bin, ['-c', '-f', file], { encoding: 'utf8', timeout: 20_000 });
    return { status: r.status, output: `${r.stdout}${r.stderr}` };
  };

  it('accepts a small valid config', () => {
    const r = check(
      [
        'defaults',
        '  mode http',
        '  timeout connect 5s',
        '  timeout client 5s',
        '  timeout server 5s',
        'frontend fe',
        '  bind 127.0.0.1:18081',
        '  default_backend be',
        'backend be',
        '  server s1 127.0.0.1:1',
        '',
      ].join('\n'),
    );
    assert.equal(r.status, 0, r.output);
  });

  it('rejects a broken config and reports the offending line', () => {
    const r = check(
      [
        'defaults',
        '  mode http',
        '  timeout connect 5s',
        '  timeout client 5s',
        '  timeout server 5s',
        'frontend fe',
        '  bind 127.0.0.1:18082',
        '  this_is_not_a_keyword now',
        '  default_backend be',
        'backend be',
        '  server s1 127.0.0.1:1',
        '',
      ].join('\n'),
    );
    assert.notEqual(r.status, 0);
    assert.match(r.output, /haproxy\.cfg:8\]/);
    assert.match(r.output, /this_is_not_a_keyword/);
  });
});

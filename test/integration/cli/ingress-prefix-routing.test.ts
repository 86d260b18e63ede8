// Runs the example's rendered config in a real HAProxy and checks Kubernetes Prefix semantics on
// the wire: a Prefix matches whole path elements, so /api serves /api and /api/... but not /apix.
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import {
  freePort,
  httpGet,
  ScratchHaproxy,
  startEchoBackends,
} from '../haproxy/support/haproxy-fixture.js';
import { REPO_ROOT, runHaptic } from './run-haptic.js';

const EXAMPLE = join(REPO_ROOT, 'examples/ingress-basic/config.yaml');

function fixturesYaml(ports: Record<string, number>): string {
  const service = (name: string): string =>
    [
      'apiVersion: v1',
      'kind: Service',
      `metadata: { name: ${name}, namespace: shop }`,
      'spec: { ports: [{ name: http, port: 80 }] }',
      '---',
      'apiVersion: discovery.k8s.io/v1',
      'kind: EndpointSlice',
      'metadata:',
      `  name: ${name}-1`,
      '  namespace: shop',
      `  labels: { kubernetes.io/service-name: ${name} }`,
      `ports: [{ name: http, port: ${String(ports[name])} }]`,
      'endpoints:',
      `  - { addresses: [127.0.0.1], conditions: { ready: true }, targetRef: { kind: Pod, name: ${name}-pod } }`,
    ].join('\n');
  return [
    service('web'),
    '---',
    service('api'),
    '---',
    'apiVersion: networking.k8s.io/v1',
    'kind: Ingress',
    'metadata: { name: shop, namespace: shop }',
    'spec:',
    '  ingressClassName: haproxy',
    '  rules:',
    '    - host: shop.example.com',
    '      http:',
    '        paths:',
    '          - { path: /, pathType: Prefix, backend: { service: { name: web, port: { number: 80 } } } }',
    '          - { path: /api, pathType: Prefix, backend: { service: { name: api, port: { number: 80 } } } }',
    '',
  ].join('\n');
}

describe('the ingress-basic example in a real HAProxy', () => {
  const haproxy = new ScratchHaproxy();
  let echo: Awaited<ReturnType<typeof startEchoBackends>> | undefined;
  let dir = '';
  let httpPort = 0;

  before(async () => {
    dir = mkdtempSync(join(tmpdir(), 'haptic-prefix-routing-'));
    echo = await startEchoBackends(['web', 'api']);
    httpPort = await freePort();
    const statsPort = await freePort();
    // Only the listening ports differ from the shipped example.
    const config = readFileSync(EXAMPLE, 'utf8')
      .replace(/^( +httpPort:) \d+$/m, `$1 ${String(httpPort)}`)
      .replace(/^( +statsPort:) \d+$/m, `$1 ${String(statsPort)}`);
    writeFileSync(join(dir, 'config.yaml'), config);
    writeFileSync(join(dir, 'objects.yaml'), fixturesYaml(echo.ports));
    const out = join(dir, 'out');
    const run = await runHaptic([
      'render',
      '-f',
      join(dir, 'config.yaml'),
      '--fixtures',
      join(dir, 'objects.yaml'),
      '--out',
      out,
      '--validate',
    ]);
    assert.equal(run.code, 0, run.stderr);
    // The rendered file set is relative to the run directory (-C) as written; only the admin
    // socket moves into it, listeners bind loopback only, and maxconn fits a test's FD limit.
    const cfgPath = join(out, 'haproxy.cfg');
    const cfg = readFileSync(cfgPath, 'utf8')
      .replace(/stats socket \S+/, `stats socket ${join(out, 'admin.sock')}`)
      .replaceAll('bind :', 'bind 127.0.0.1:')
      .replace(/^( +maxconn) \d+$/m, '$1 1000');
    writeFileSync(cfgPath, cfg);
    await haproxy.start(out);
  });

  after(async () => {
    await haproxy.cleanup();
    await echo?.close();
    rmSync(dir, { recursive: true, force: true });
  });

  const cases: [path: string, backend: string][] = [
    ['/api', 'api'],
    ['/api/', 'api'],
    ['/api/x', 'api'],
    ['/apix', 'web'],
    ['/', 'web'],
  ];
  for (const [path, backend] of cases) {
    it(`routes ${path} to the ${backend} backend`, async () => {
      const res = await httpGet(httpPort, path, 'shop.example.com');
      assert.equal(res.status, 200, res.body);
      assert.equal(res.headers['x-served-by'], backend);
    });
  }
});

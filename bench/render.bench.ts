/**
 * Render benchmark: N HTTPRoute-like objects, one Service each and one EndpointSlice per Service
 * with 3 endpoints, through a representative template (host map, path map, one backend per
 * Service). Prints median render time, output size, peak RSS and the `haproxy -c` time.
 *
 *   npm run bench -- render [--sizes 300,1000,3000] [--runs 15]
 */
import { resolveHaproxyBinary } from '../src/haproxy/haproxy-binary.js';
import { validateFileSet } from '../src/haproxy/validate/validate-file-set.js';
import { FixtureStore } from '../src/templating/fixture-store.js';
import { parseTemplateConfig } from '../src/templating/parse-template-config.js';
import { renderedFileList } from '../src/templating/render-output.js';
import { createTemplateRenderer } from '../src/templating/template-renderer.js';

const HAPROXY_CFG = `global
  master-worker
  maxconn 50000
  close-spread-time 1s

defaults
  mode http
  option idle-close-on-response
  timeout connect 5s
  timeout client 50s
  timeout server 50s

frontend http
  bind :8080
  http-request set-var(txn.host) req.hdr(host),field(1,:),lower
  http-request set-var(txn.path) path
  http-request set-var(txn.hostpath) var(txn.host),concat(,txn.path)
  http-request set-var(txn.backend) var(txn.hostpath),map_beg({{ pathResolver.getPath("path.map", "map") }}) if { var(txn.host),map({{ pathResolver.getPath("host.map", "map") }}) -m found }
  use_backend %[var(txn.backend)] if { var(txn.backend) -m found }
  default_backend be_default

backend be_default
  http-request return status 404
{% for svc in resources.services.list() %}

backend be_{{ svc.metadata.namespace }}_{{ svc.metadata.name }}
  balance roundrobin
{% for slice in resources.endpointslices.fetch(svc.metadata.namespace, svc.metadata.name) %}
{% for ep in slice.endpoints %}
{% if ep.conditions.ready %}
  server {{ ep.targetRef.name | safe_host }} {{ ep.addresses[0] | safe_host }}:{{ slice.ports[0].port }} check
{% endif %}
{% endfor %}
{% endfor %}
{% endfor %}
`;

const HOST_MAP = `{% for r in resources.httproutes.list() %}
{% for h in r.spec.hostnames %}
{{ h | safe_host }} 1
{% endfor %}
{% endfor %}
`;

const PATH_MAP = `{% for r in resources.httproutes.list() %}
{% for h in r.spec.hostnames %}
{% for rule in r.spec.rules %}
{% for m in rule.matches %}
{{ h | safe_host }}{{ m.path.value | safe_path }} be_{{ r.metadata.namespace }}_{{ rule.backendRefs[0].name }}
{% endfor %}
{% endfor %}
{% endfor %}
{% endfor %}
`;

function fixtures(n: number) {
  const routes: object[] = [];
  const services: object[] = [];
  const slices: object[] = [];
  for (let i = 0; i < n; i++) {
    const ns = `team-${i % 50}`;
    const name = `app-${i}`;
    routes.push({
      apiVersion: 'gateway.networking.k8s.io/v1',
      kind: 'HTTPRoute',
      metadata: { namespace: ns, name, generation: 1 },
      spec: {
        hostnames: [`${name}.${ns}.example.com`],
        rules: [
          {
            matches: [
              { path: { type: 'PathPrefix', value: '/' } },
              { path: { type: 'PathPrefix', value: '/api' } },
            ],
            backendRefs: [{ name, port: 80 }],
          },
        ],
      },
    });
    services.push({
      apiVersion: 'v1',
      kind: 'Service',
      metadata: { namespace: ns, name },
      spec: { ports: [{ name: 'http', port: 80, targetPort: 8080 }] },
    });
    slices.push({
      apiVersion: 'discovery.k8s.io/v1',
      kind: 'EndpointSlice',
      metadata: {
        namespace: ns,
        name: `${name}-x`,
        labels: { 'kubernetes.io/service-name': name },
      },
      ports: [{ name: 'http', port: 8080 }],
      endpoints: [0, 1, 2].map((e) => ({
        addresses: [`10.${(i >> 8) & 255}.${i & 255}.${e + 1}`],
        conditions: { ready: true },
        targetRef: { kind: 'Pod', name: `${name}-${e}` },
      })),
    });
  }
  return { routes, services, slices };
}

function median(xs: number[]): number {
  const s = [...xs].sort((a, b) => a - b);
  const mid = Math.floor(s.length / 2);
  return s.length % 2 ? s[mid]! : (s[mid - 1]! + s[mid]!) / 2;
}

function argValue(args: string[], name: string): string | undefined {
  const i = args.indexOf(name);
  return i >= 0 ? args[i + 1] : undefined;
}

export default async function renderBench(args: string[], signal: AbortSignal): Promise<void> {
  const sizes = (argValue(args, '--sizes') ?? '300,1000,3000').split(',').map(Number);
  const runs = Number(argValue(args, '--runs') ?? '15');
  const compileStart = performance.now();
  const renderer = createTemplateRenderer(
    parseTemplateConfig({
      apiVersion: 'haproxy-haptic.org/v1alpha1',
      kind: 'HAProxyTemplateConfig',
      metadata: { name: 'bench' },
      spec: {
        watchedResources: {
          httproutes: {
            apiVersion: 'gateway.networking.k8s.io/v1',
            resources: 'httproutes',
            indexBy: ['metadata.namespace', 'metadata.name'],
          },
          services: {
            apiVersion: 'v1',
            resources: 'services',
            indexBy: ['metadata.namespace', 'metadata.name'],
          },
          endpointslices: {
            apiVersion: 'discovery.k8s.io/v1',
            resources: 'endpointslices',
            indexBy: ['metadata.namespace', "metadata.labels['kubernetes.io/service-name']"],
          },
        },
        haproxyConfig: { template: HAPROXY_CFG },
        maps: { 'host.map': { template: HOST_MAP }, 'path.map': { template: PATH_MAP } },
      },
    }),
  );
  const compileMs = performance.now() - compileStart;
  const haproxyBin = (() => {
    try {
      return resolveHaproxyBinary();
    } catch {
      return null;
    }
  })();
  console.log(
    `render benchmark (node ${process.version}, ${runs} runs per size, compile ${compileMs.toFixed(1)} ms)`,
  );
  console.log('N routes | median render ms | min ms | output bytes | peak RSS MiB | haproxy -c ms');
  for (const n of sizes) {
    if (signal.aborted) return;
    const { routes, services, slices } = fixtures(n);
    const input = {
      stores: {
        httproutes: new FixtureStore('httproutes', routes, ['metadata.namespace', 'metadata.name']),
        services: new FixtureStore('services', services, ['metadata.namespace', 'metadata.name']),
        endpointslices: new FixtureStore('endpointslices', slices, [
          'metadata.namespace',
          "metadata.labels['kubernetes.io/service-name']",
        ]),
      },
      now: Date.UTC(2025, 0, 1),
    };
    for (let w = 0; w < 3; w++) renderer.render(input);
    const times: number[] = [];
    let output = renderer.render(input);
    for (let r = 0; r < runs; r++) {
      const t0 = performance.now();
      output = renderer.render(input);
      times.push(performance.now() - t0);
    }
    const files = renderedFileList(output.files, renderer.config.layout);
    const bytes = files.reduce((sum, f) => sum + Buffer.byteLength(f.content), 0);
    const rssMiB = process.resourceUsage().maxRSS / 1024;
    let checkMs = 'n/a';
    if (haproxyBin) {
      const result = await validateFileSet({
        haproxyBin,
        configPath: renderer.config.layout.configFile,
        files: files.map((f) => ({ path: f.path, content: f.content })),
        signal,
      });
      checkMs = `${result.durationMs.toFixed(0)}${result.valid ? '' : ` (INVALID: ${result.errors[0]?.message ?? ''})`}`;
    }
    console.log(
      `${String(n).padStart(8)} | ${median(times).toFixed(1).padStart(16)} | ${Math.min(...times)
        .toFixed(1)
        .padStart(
          6,
        )} | ${String(bytes).padStart(12)} | ${rssMiB.toFixed(0).padStart(12)} | ${checkMs}`,
    );
  }
}

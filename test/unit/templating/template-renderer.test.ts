import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { FixtureStore } from '../../../src/templating/fixture-store.js';
import { parseTemplateConfig } from '../../../src/templating/parse-template-config.js';
import {
  TemplateConfigError,
  TemplateRenderError,
} from '../../../src/templating/template-errors.js';
import {
  createTemplateRenderer,
  failMessageOf,
} from '../../../src/templating/template-renderer.js';

const NOW = Date.UTC(2025, 5, 1, 12, 0, 0);

function renderer(spec: Record<string, unknown>) {
  return createTemplateRenderer(
    parseTemplateConfig({
      apiVersion: 'haproxy-haptic.org/v1alpha1',
      kind: 'HAProxyTemplateConfig',
      metadata: { name: 't' },
      spec: {
        watchedResources: {
          services: {
            apiVersion: 'v1',
            resources: 'services',
            indexBy: ['metadata.namespace', 'metadata.name'],
          },
        },
        ...spec,
      },
    }),
  );
}

const svc = (namespace: string, name: string, extra: Record<string, unknown> = {}) => ({
  apiVersion: 'v1',
  kind: 'Service',
  metadata: { namespace, name, ...extra },
});

function renderCfg(
  template: string,
  services: object[] = [],
  spec: Record<string, unknown> = {},
): string {
  const r = renderer({ haproxyConfig: { template }, ...spec });
  return r.render({
    stores: {
      services: new FixtureStore('services', services, ['metadata.namespace', 'metadata.name']),
    },
    now: NOW,
  }).files.haproxyCfg;
}

function renderError(template: string, spec: Record<string, unknown> = {}): TemplateRenderError {
  try {
    renderCfg(template, [], spec);
  } catch (err) {
    assert.ok(
      err instanceof TemplateRenderError,
      `expected TemplateRenderError, got ${String(err)}`,
    );
    return err;
  }
  assert.fail('render succeeded');
}

describe('TemplateRenderer', () => {
  it('lists, fetches by partial keys and gets single objects from a store, in key order', () => {
    const out = renderCfg(
      '{% for s in resources.services.list() %}{{ s.metadata.namespace }}/{{ s.metadata.name }} {% endfor %}|' +
        '{{ resources.services.fetch("b") | length }}|{{ resources.services.getSingle("b", "y").metadata.name }}|' +
        '{{ resources.services.getSingle("c", "z") is none }}',
      [svc('b', 'y'), svc('a', 'x'), svc('b', 'x')],
    );
    assert.equal(out, 'a/x b/x b/y |2|y|true\n');
  });

  it('exposes the HAProxy pod store as controller.haproxy_pods', () => {
    const r = renderer({
      haproxyConfig: {
        template: '{% for p in controller.haproxy_pods.list() %}{{ p.metadata.name }} {% endfor %}',
      },
    });
    const pods = new FixtureStore(
      'haproxy-pods',
      [svc('haptic', 'haproxy-1'), svc('haptic', 'haproxy-0')],
      ['metadata.namespace', 'metadata.name'],
    );
    assert.equal(
      r.render({ stores: {}, haproxyPods: pods, now: NOW }).files.haproxyCfg,
      'haproxy-0 haproxy-1 \n',
    );
  });

  it('fails getSingle when more than one object matches, naming the store', () => {
    const err = (() => {
      try {
        renderCfg('{{ resources.services.getSingle("b") }}', [svc('b', 'x'), svc('b', 'y')]);
      } catch (e) {
        return e;
      }
      return null;
    })();
    assert.ok(err instanceof TemplateRenderError);
    assert.match(err.message, /resources\.services\.getSingle\("b"\): 2 objects match/);
  });

  it('names the template and line of an undefined variable inside a snippet', () => {
    const err = renderError('global\n{% include "snip" %}\n', {
      templateSnippets: { snip: { template: 'ok\n  {{ missing.value }}\n' } },
    });
    assert.equal(err.location.template, 'snip');
    assert.equal(err.location.line, 2);
  });

  it('names the including template, not the included snippet, for an error after an include', () => {
    const err = renderError('{% include "snip" %}\nglobal\n{{ fail("after include") }}\n', {
      templateSnippets: { snip: { template: 'one\ntwo\nthree\nfour\n' } },
    });
    assert.deepEqual([err.location.template, err.location.line], ['haproxy.cfg', 3]);
  });

  it('aborts with the message of fail() and names its template and line', () => {
    const err = renderError(
      'global\n{% if true %}\n{{ fail("no backend for shop/web") }}\n{% endif %}\n',
    );
    assert.equal(failMessageOf(err), 'no backend for shop/web');
    assert.equal(err.detail, 'no backend for shop/web');
    assert.deepEqual([err.location.template, err.location.line], ['haproxy.cfg', 3]);
    assert.match(err.message, /^template haproxy\.cfg:3:\d+: no backend for shop\/web$/);
  });

  it('rejects a template syntax error when the config is compiled, naming template and line', () => {
    assert.throws(
      () => renderer({ haproxyConfig: { template: 'global\n{% if %}\n' } }),
      (e: unknown) =>
        e instanceof TemplateConfigError && /template haproxy\.cfg:2: /.test(e.message),
    );
  });

  it('includes every snippet matching a glob in name order with render_glob', () => {
    const out = renderCfg('{{ render_glob("backends-*") }}', [], {
      templateSnippets: {
        'backends-200-b': { template: 'B {{ x }}\n' },
        'backends-100-a': { template: 'A {{ x }}\n' },
        'other-1': { template: 'O\n' },
      },
      templatingSettings: { extraContext: { x: 7 } },
    });
    assert.equal(out, 'A 7\nB 7\n');
  });

  it('exposes extraContext both at top level and under extraContext', () => {
    const out = renderCfg('{{ port }} {{ extraContext.port }}', [], {
      templatingSettings: { extraContext: { port: 8080 } },
    });
    assert.equal(out, '8080 8080\n');
  });

  it('resolves paths relative to the base directory and registers files created on the fly', () => {
    const r = renderer({
      haproxyConfig: {
        template:
          'a {{ pathResolver.getPath("hosts.map", "map") }}\n' +
          'b {{ fileRegistry.register("crt-list", "certs.list", "certs/a.pem\\n") }}\n' +
          'c {{ fileRegistry.register("file", "503.http", "HTTP/1.0 503\\n") }}\n',
      },
    });
    const out = r.render({ stores: {}, now: NOW });
    assert.equal(
      out.files.haproxyCfg,
      'a maps/hosts.map\nb crt-lists/certs.list\nc files/503.http\n',
    );
    assert.deepEqual(out.files.crtLists, { 'certs.list': 'certs/a.pem\n' });
    assert.deepEqual(out.files.files, { '503.http': 'HTTP/1.0 503\n' });
  });

  it('rejects a registered file name that could escape its directory', () => {
    const err = renderError('{{ fileRegistry.register("map", "../evil.map", "x") }}');
    assert.match(err.detail, /invalid file name/);
  });

  it('computes shared values once per render and shares them between templates', () => {
    const r = renderer({
      haproxyConfig: { template: '{% set _ = shared.set("n", 41) %}{{ shared.get("n") + 1 }}' },
      maps: { 'x.map': { template: '{{ shared.get("n") }} {{ shared.has("zzz") }}' } },
    });
    const out = r.render({ stores: {}, now: NOW });
    assert.equal(out.files.haproxyCfg, '42\n');
    assert.equal(out.files.maps['x.map'], '41 false');
  });

  it('registers status patch variants with conditions whose transition time is kept while status is unchanged', () => {
    const route = {
      apiVersion: 'gateway.networking.k8s.io/v1',
      kind: 'HTTPRoute',
      metadata: { namespace: 'shop', name: 'web', generation: 4 },
      status: {
        conditions: [
          { type: 'Accepted', status: 'True', lastTransitionTime: '2024-01-01T00:00:00Z' },
        ],
      },
    };
    const r = renderer({
      haproxyConfig: {
        template:
          '{% set conds = route.status.conditions %}' +
          '{% set _ = statusPatch(route, {' +
          ' rendered: { conditions: [condition("Accepted", "True", "Accepted", "ok", route.metadata.generation, transitionTime(conds, "Accepted", "True"))] },' +
          ' deployed: { conditions: [condition("Programmed", "True", "Programmed", "live", route.metadata.generation, transitionTime(conds, "Programmed", "True"))] },' +
          ' renderFailed: { conditions: [condition("Accepted", "False", "Invalid", "bad", route.metadata.generation, transitionTime(conds, "Accepted", "False"))] }' +
          ' }) %}global',
      },
      templatingSettings: { extraContext: { route } },
    });
    const out = r.render({ stores: {}, now: NOW });
    assert.equal(out.statusPatches.length, 1);
    const p = out.statusPatches[0]!;
    assert.deepEqual(
      [p.apiVersion, p.kind, p.namespace, p.name],
      ['gateway.networking.k8s.io/v1', 'HTTPRoute', 'shop', 'web'],
    );
    assert.deepEqual(p.variants.rendered, {
      conditions: [
        {
          type: 'Accepted',
          status: 'True',
          reason: 'Accepted',
          message: 'ok',
          observedGeneration: 4,
          lastTransitionTime: '2024-01-01T00:00:00Z',
        },
      ],
    });
    assert.equal(
      (p.variants.deployed as any).conditions[0].lastTransitionTime,
      '2025-06-01T12:00:00Z',
    );
    assert.equal(
      (p.variants.renderFailed as any).conditions[0].lastTransitionTime,
      '2025-06-01T12:00:00Z',
    );
  });

  it('rejects a status variant with an unknown phase', () => {
    const err = renderError(
      '{{ statusPatch({ apiVersion: "v1", kind: "Service", metadata: { name: "a" } }, { applied: {} }) }}',
    );
    assert.match(err.detail, /unknown variant "applied"/);
  });

  it('attaches status patches registered before a failure to the render error', () => {
    const err = renderError(
      '{% set _ = statusPatch({ apiVersion: "v1", kind: "Service", metadata: { namespace: "a", name: "b" } }, { renderFailed: { x: 1 } }) %}{{ fail("stop") }}',
    );
    assert.equal(err.statusPatches.length, 1);
  });

  it('emits debug() output as comment lines', () => {
    assert.equal(
      renderCfg('{{ debug({b: 1, a: [1]}, "ctx") }}'),
      '# DEBUG ctx:\n#   {\n#     "a": [\n#       1\n#     ],\n#     "b": 1\n#   }\n',
    );
  });

  it('supports the Jinja features nunjucks lacks through the compat pack', () => {
    const out = renderCfg(
      '{% set d = {"b": 2, "a": 1} %}' +
        '{% for k, v in d.items() %}{{ k }}={{ v }};{% endfor %}|{{ d.get("a") }}|' +
        '{{ items | map(attribute="n") | join(",") }}|' +
        '{{ items | sort(attribute="n", reverse=true) | map(attribute="n") | join(",") }}|' +
        '{{ items | selectattr("n", "gt", 1) | map(attribute="n") | join(",") }}|' +
        '{{ items | rejectattr("n", "equalto", 2) | map(attribute="n") | join(",") }}|' +
        '{{ [3, 1, 3] | unique | join(",") }}|{{ [3, 1, 2] | min }}|{{ items | max(attribute="n") | tojson }}|' +
        '{{ "%s-%03d" | format("be", 7) }}|{{ "a.b.c" | regex_replace("\\\\.", "_") }}|{{ {"z": 1, "a": [true]} | tojson }}',
      [],
      { templatingSettings: { extraContext: { items: [{ n: 2 }, { n: 1 }, { n: 3 }] } } },
    );
    assert.equal(
      out,
      'b=2;a=1;|1|2,1,3|3,2,1|2,3|1,3|3,1|1|{"n":3}|be-007|a_b_c|{"a":[true],"z":1}\n',
    );
  });

  it('renders byte-identical output and checksum for the same input', () => {
    const r = renderer({
      haproxyConfig: {
        template:
          '{% for s in resources.services.list() %}server {{ s.metadata.name }}\n{% endfor %}',
      },
      maps: {
        'm.map': {
          template: '{% for s in resources.services.list() %}{{ s.metadata.name }} x\n{% endfor %}',
        },
      },
    });
    const input = {
      stores: {
        services: new FixtureStore(
          'services',
          [svc('a', 'b'), svc('a', 'a')],
          ['metadata.namespace', 'metadata.name'],
        ),
      },
      now: NOW,
    };
    const first = r.render(input);
    const second = r.render(input);
    assert.deepEqual(second, first);
    assert.match(first.checksum, /^sha256:[0-9a-f]{64}$/);
    const other = r.render({
      stores: {
        services: new FixtureStore(
          'services',
          [svc('a', 'c')],
          ['metadata.namespace', 'metadata.name'],
        ),
      },
      now: NOW,
    });
    assert.notEqual(other.checksum, first.checksum);
  });
});

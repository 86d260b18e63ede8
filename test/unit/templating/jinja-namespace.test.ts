import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { FixtureStore } from '../../../src/templating/fixture-store.js';
import { parseTemplateConfig } from '../../../src/templating/parse-template-config.js';
import {
  TemplateConfigError,
  TemplateRenderError,
} from '../../../src/templating/template-errors.js';
import { createTemplateRenderer } from '../../../src/templating/template-renderer.js';

const KEYS = ['metadata.namespace', 'metadata.name'];

function renderer(template: string, snippets: Record<string, string> = {}) {
  return createTemplateRenderer(
    parseTemplateConfig({
      apiVersion: 'haproxy-haptic.org/v1alpha1',
      kind: 'HAProxyTemplateConfig',
      metadata: { name: 't' },
      spec: {
        watchedResources: { services: { apiVersion: 'v1', resources: 'services', indexBy: KEYS } },
        templateSnippets: Object.fromEntries(
          Object.entries(snippets).map(([n, t]) => [n, { template: t }]),
        ),
        haproxyConfig: { template },
      },
    }),
  );
}

function render(template: string, snippets: Record<string, string> = {}): string {
  const services = [
    { apiVersion: 'v1', kind: 'Service', metadata: { namespace: 'a', name: 'x', labels: {} } },
  ];
  return renderer(template, snippets).render({
    stores: { services: new FixtureStore('services', services, KEYS) },
    now: 0,
  }).files.haproxyCfg;
}

/** The TemplateRenderError a render of `template` throws. */
function renderError(template: string): TemplateRenderError {
  let caught: TemplateRenderError | undefined;
  assert.throws(
    () => render(template),
    (e: unknown) => {
      if (e instanceof TemplateRenderError) caught = e;
      return caught !== undefined;
    },
  );
  return caught as TemplateRenderError;
}

describe('namespace() attribute assignment', () => {
  it('carries a value set inside a loop body out of the loop', () => {
    const out = render(
      '{% set ns = namespace(found=false, n=0) %}\n' +
        '{% for i in [1, 2, 3] %}\n' +
        '{% if i == 2 %}{% set ns.found = true %}{% endif %}\n' +
        '{% set ns.n = ns.n + i %}\n' +
        '{% endfor %}\n' +
        'found={{ ns.found }} n={{ ns.n }}\n',
    );
    assert.equal(out, 'found=true n=6\n');
  });

  it('assigns the captured body of a block set', () => {
    const out = render(
      '{% set ns = namespace(text="") %}\n' +
        '{% for i in [1, 2] %}{% set ns.text %}{{ ns.text }}[{{ i }}]{% endset %}{% endfor %}\n' +
        '{{ ns.text }}\n',
    );
    assert.equal(out, '[1][2]\n');
  });

  it('adds attributes the namespace was not created with, and mutations made in an included snippet are seen by the includer', () => {
    const out = render(
      '{% set ns = namespace() %}\n{% include "mark" %}\nmarked={{ ns.marked }}\n',
      { mark: '{% set ns.marked = "yes" %}' },
    );
    assert.equal(out, 'marked=yes\n');
  });

  it('keeps an attribute named __proto__ an ordinary field instead of changing the prototype', () => {
    const out = render(
      '{% set ns = namespace() %}\n{% set ns.__proto__ = {polluted: 1} %}\n' +
        '{{ ns.polluted is defined }}\n',
    );
    assert.equal(out, 'false\n');
    assert.equal(({} as Record<string, unknown>)['polluted'], undefined);
  });

  it('refuses attribute assignment into resource data, naming the template and line', () => {
    const err = renderError(
      '{% for s in resources.services.list() %}\n\n{% set s.metadata = 1 %}\n{% endfor %}\n',
    );
    assert.equal(err.location.template, 'haproxy.cfg');
    assert.equal(err.location.line, 3);
    assert.match(err.message, /cannot set s\.metadata: only namespace\(\) objects/);
    assert.match(err.message, /namespace\(metadata=\.\.\.\)/);
  });

  it('refuses attribute assignment into a dict literal', () => {
    const err = renderError('{% set d = {a: 1} %}\n{% set d.a = 2 %}\n');
    assert.equal(err.location.line, 2);
    assert.match(err.message, /cannot set d\.a: only namespace\(\) objects/);
  });

  it('rejects nested or mixed attribute targets when the config loads, naming the template and line', () => {
    for (const tag of ['{% set ns.a.b = 1 %}', '{% set ns.a, x = 1 %}']) {
      assert.throws(
        () => renderer(`{% set ns = namespace() %}\n${tag}\n`),
        (e: unknown) =>
          e instanceof TemplateConfigError &&
          /template haproxy\.cfg:2: .*attribute target must be the only target/.test(e.message),
        tag,
      );
    }
  });

  it('leaves plain and multi-variable set tags working as before', () => {
    assert.equal(render('{% set a, b = 3 %}{{ a }}{{ b }}\n'), '33\n');
  });
});

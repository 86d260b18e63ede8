import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { before, describe, it } from 'node:test';
import { fileSetFromRecord, type FileSet } from '../../../src/haproxy/plan/file-set.js';
import { planChange } from '../../../src/haproxy/plan/plan-change.js';
import type { PlanDecision } from '../../../src/haproxy/plan/plan-decision.js';
import type { RuntimeOp } from '../../../src/haproxy/plan/runtime-op.js';
import { parseFixturesYaml, routeFixtures } from '../../../src/templating/load-fixtures.js';
import { parseTemplateConfigYaml } from '../../../src/templating/load-template-config.js';
import { renderedFileList } from '../../../src/templating/render-output.js';
import {
  createTemplateRenderer,
  type TemplateRenderer,
} from '../../../src/templating/template-renderer.js';
import {
  renderInputFromFixtures,
  TEST_RENDER_NOW,
} from '../../../src/templating/validation-test-runner.js';

// The seam between the templates and the agent: a rendered file set, keyed by the paths the
// renderer lists, is exactly the FileSet the planner compares, and haproxy.cfg names its maps by
// those same paths, so a routing change is a runtime map update rather than a reload.
const example = new URL('../../../examples/ingress-basic/', import.meta.url).pathname;

type Obj = Record<string, unknown>;

function kindOf(o: Obj): unknown {
  return o['kind'];
}

describe('rendered example file sets planned by the agent planner', () => {
  let renderer: TemplateRenderer;
  let baseObjects: Obj[] = [];

  before(() => {
    const config = parseTemplateConfigYaml(
      readFileSync(`${example}config.yaml`, 'utf8'),
      'config.yaml',
    );
    renderer = createTemplateRenderer(config);
    baseObjects = parseFixturesYaml(
      readFileSync(`${example}fixtures.yaml`, 'utf8'),
      'fixtures.yaml',
    );
  });

  const render = (objects: Obj[]): FileSet => {
    const fixtures = routeFixtures(renderer.config, objects, 'fixtures');
    const output = renderer.render(renderInputFromFixtures(renderer, fixtures, TEST_RENDER_NOW));
    const record: Record<string, string> = {};
    for (const f of renderedFileList(output.files, renderer.config.layout)) {
      record[f.path] = f.content;
    }
    return fileSetFromRecord(record);
  };

  /** The example objects with one object of `kind` replaced by `edit(copy)`. */
  const edited = (kind: string, edit: (o: Obj) => void): Obj[] =>
    baseObjects.map((o) => {
      if (kindOf(o) !== kind) return o;
      const copy = structuredClone(o);
      edit(copy);
      return copy;
    });

  const opsOf = (d: PlanDecision): readonly RuntimeOp[] => {
    if (d.mode !== 'runtime')
      assert.fail(`expected runtime, got ${d.mode}: ${d.reasons.join('; ')}`);
    return d.ops;
  };

  it('keys every rendered file by its path relative to the base dir, haproxy.cfg at the root', () => {
    const set = render(baseObjects);
    const paths = [...set.files.keys()].sort();
    assert.ok(paths.includes('haproxy.cfg'));
    assert.ok(paths.includes('maps/path-prefix.map'));
    for (const p of paths) assert.doesNotMatch(p, /^\/|\.\./);
    assert.match(set.files.get('haproxy.cfg') as string, /map_beg\(maps\/path-prefix\.map\)/);
  });

  it('plans an Ingress path added to the example as runtime map updates, not a reload', () => {
    const a = render(baseObjects);
    const b = render(
      edited('Ingress', (o) => {
        const rules = (o['spec'] as Obj)['rules'] as Obj[];
        const paths = (rules[0]?.['http'] as Obj)['paths'] as Obj[];
        paths.push({
          path: '/api',
          pathType: 'Prefix',
          backend: { service: { name: 'web', port: { number: 80 } } },
        });
      }),
    );
    assert.notDeepEqual([...a.files.entries()], [...b.files.entries()]);
    const ops = opsOf(planChange(a, b));
    assert.ok(ops.length > 0);
    for (const op of ops) assert.match(op.op, /^map\./);
    const prefixOps = ops.filter((op) => op.op === 'map.add' && op.map === 'maps/path-prefix.map');
    assert.deepEqual(
      prefixOps.map((op) => (op.op === 'map.add' ? op.key : '')),
      ['shop.example.com/api/'],
    );
  });

  it('plans a changed endpoint address in the example as runtime server updates', () => {
    const a = render(baseObjects);
    const b = render(
      edited('EndpointSlice', (o) => {
        const endpoints = o['endpoints'] as Obj[];
        const second = endpoints[1];
        assert.ok(second);
        second['addresses'] = ['10.0.0.99'];
      }),
    );
    assert.deepEqual(opsOf(planChange(a, b)), [
      {
        op: 'server.set-addr',
        backend: 'be_shop_web_80',
        server: 'web-2',
        address: '10.0.0.99',
        port: 8080,
      },
    ]);
  });
});

import assert from 'node:assert/strict';
import {
  existsSync,
  mkdirSync,
  readdirSync,
  readFileSync,
  rmSync,
  statSync,
  writeFileSync,
} from 'node:fs';
import { dirname, join, relative } from 'node:path';
import { describe, it } from 'node:test';
import { loadFixtures } from '../../../src/templating/load-fixtures.js';
import { loadTemplateConfig } from '../../../src/templating/load-template-config.js';
import { renderedFileList } from '../../../src/templating/render-output.js';
import { TemplateRenderError } from '../../../src/templating/template-errors.js';
import { createTemplateRenderer } from '../../../src/templating/template-renderer.js';
import {
  renderInputFromFixtures,
  TEST_RENDER_NOW,
} from '../../../src/templating/validation-test-runner.js';

// Each case: config.yaml + fixtures.yaml in, expected/ out (the file set relative to the base dir,
// status-patches.json, checksum.txt, or error.txt for a failing render). UPDATE_GOLDEN=1 rewrites
// expected/ instead of comparing; review the diff before committing it.
const root = new URL('../../golden/templating/', import.meta.url).pathname;
const update = process.env['UPDATE_GOLDEN'] === '1';

function listFiles(dir: string): string[] {
  if (!existsSync(dir)) return [];
  return readdirSync(dir).flatMap((name) => {
    const p = join(dir, name);
    return statSync(p).isDirectory() ? listFiles(p) : [p];
  });
}

async function renderCase(dir: string): Promise<Map<string, string>> {
  const config = await loadTemplateConfig(join(dir, 'config.yaml'));
  const renderer = createTemplateRenderer(config);
  const fixtures = await loadFixtures(config, join(dir, 'fixtures.yaml'));
  const out = new Map<string, string>();
  try {
    const output = renderer.render(renderInputFromFixtures(renderer, fixtures, TEST_RENDER_NOW));
    for (const f of renderedFileList(output.files, config.layout)) out.set(f.path, f.content);
    out.set('status-patches.json', `${JSON.stringify(output.statusPatches, null, 2)}\n`);
    out.set('checksum.txt', `${output.checksum}\n`);
  } catch (err) {
    if (!(err instanceof TemplateRenderError)) throw err;
    out.set('error.txt', `${err.message}\n`);
  }
  return out;
}

describe('golden templating cases', () => {
  const cases = readdirSync(root)
    .filter((n) => statSync(join(root, n)).isDirectory())
    .sort();

  it('has cases to check', () => {
    assert.ok(cases.length >= 3);
  });

  for (const name of cases) {
    it(`renders case ${name} exactly as recorded`, async () => {
      const dir = join(root, name);
      const expectedDir = join(dir, 'expected');
      const actual = await renderCase(dir);
      if (update) {
        rmSync(expectedDir, { recursive: true, force: true });
        for (const [rel, content] of actual) {
          mkdirSync(dirname(join(expectedDir, rel)), { recursive: true });
          writeFileSync(join(expectedDir, rel), content);
        }
        return;
      }
      const expectedFiles = listFiles(expectedDir)
        .map((p) => relative(expectedDir, p))
        .sort();
      assert.deepEqual(
        [...actual.keys()].sort(),
        expectedFiles,
        `file set of ${name} (run with UPDATE_GOLDEN=1 to regenerate)`,
      );
      for (const rel of expectedFiles) {
        assert.equal(
          actual.get(rel),
          readFileSync(join(expectedDir, rel), 'utf8'),
          `${name}/expected/${rel}`,
        );
      }
    });
  }
});

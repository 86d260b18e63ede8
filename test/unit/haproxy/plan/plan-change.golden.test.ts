// Golden tests of the planner: test/golden/plan/<case>/{current/,desired/,expected.json[,options.json]}.
// UPDATE_GOLDEN=1 rewrites expected.json from the planner's output.
import assert from 'node:assert/strict';
import { existsSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { describe, it } from 'node:test';

import type { FileSet } from '../../../../src/haproxy/plan/file-set.js';
import { planChange } from '../../../../src/haproxy/plan/plan-change.js';
import type { PlanOptions } from '../../../../src/haproxy/plan/plan-decision.js';

const goldenRoot = new URL('../../../golden/plan/', import.meta.url).pathname;
const update = process.env['UPDATE_GOLDEN'] === '1';

function readTree(dir: string): FileSet {
  const files = new Map<string, string>();
  const walk = (d: string): void => {
    if (!existsSync(d)) return;
    for (const name of readdirSync(d).sort()) {
      const p = join(d, name);
      if (statSync(p).isDirectory()) walk(p);
      else files.set(relative(dir, p), readFileSync(p, 'utf8'));
    }
  };
  walk(dir);
  return { files };
}

const cases = readdirSync(goldenRoot)
  .filter((name) => statSync(join(goldenRoot, name)).isDirectory())
  .sort();

describe('planChange golden cases', () => {
  it('finds the golden cases', () => {
    assert.ok(cases.length >= 20, `only ${String(cases.length)} cases found in ${goldenRoot}`);
  });
  for (const name of cases) {
    it(`plans ${name} as recorded in expected.json`, () => {
      const dir = join(goldenRoot, name);
      const optionsFile = join(dir, 'options.json');
      const options = existsSync(optionsFile)
        ? (JSON.parse(readFileSync(optionsFile, 'utf8')) as PlanOptions)
        : {};
      const decision = planChange(
        readTree(join(dir, 'current')),
        readTree(join(dir, 'desired')),
        options,
      );
      const actual = `${JSON.stringify(decision, null, 2)}\n`;
      const expectedFile = join(dir, 'expected.json');
      if (update || !existsSync(expectedFile)) {
        writeFileSync(expectedFile, actual);
        if (!update)
          assert.fail(`${expectedFile} was missing and has been written; review it and run again`);
        return;
      }
      assert.equal(actual, readFileSync(expectedFile, 'utf8'));
    });
  }
});

// Proves the planner's central promise on real HAProxy 2.6: after the runtime ops of a plan ran
// on a process started from the current files (none for `noop`), that process is in the same
// state as a fresh HAProxy started from the desired files (servers, maps, ACLs, crt-lists,
// certificates, limits). Every runtime and noop golden case of test/golden/plan is replayed.
import assert from 'node:assert/strict';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';

import { planChange } from '../../../../src/haproxy/plan/plan-change.js';
import { executeRuntimeOps } from '../../../../src/haproxy/runtime/execute-runtime-ops.js';
import { dumpRuntimeState, readTree, writeTree } from './plan-haproxy-fixture.js';
import { freePort, ScratchHaproxy } from '../support/haproxy-fixture.js';

const goldenRoot = new URL('../../../golden/plan/', import.meta.url).pathname;
const fixture = new ScratchHaproxy();
after(() => fixture.cleanup());

const cases = readdirSync(goldenRoot)
  .filter((name) => {
    const expected = join(goldenRoot, name, 'expected.json');
    if (!existsSync(expected)) return false;
    const text = readFileSync(expected, 'utf8');
    // Servers with health checks to unreachable addresses change state on their own timing.
    return (
      ['runtime', 'noop'].includes((JSON.parse(text) as { mode: string }).mode) &&
      !text.includes('"check": true')
    );
  })
  .sort();

describe('runtime and noop plans reproduce the state of a fresh start from the desired files', () => {
  it('has runtime and noop golden cases to replay', () => {
    assert.ok(cases.length >= 20, `only ${String(cases.length)} cases`);
  });

  for (const name of cases) {
    it(`${name}: runtime state after the ops equals the state after a restart`, async () => {
      const ports = new Map<string, string>();
      const portFor = async (text: string): Promise<string> => {
        for (const m of text.matchAll(/127\.0\.0\.1:(18\d{3})/g)) {
          const port = m[1] ?? '';
          if (!ports.has(port)) ports.set(port, String(await freePort()));
        }
        return text.replace(
          /127\.0\.0\.1:(18\d{3})/g,
          (_all, p: string) => `127.0.0.1:${ports.get(p) ?? p}`,
        );
      };
      const current = readTree(join(goldenRoot, name, 'current'));
      const desired = readTree(join(goldenRoot, name, 'desired'));
      current.set('haproxy.cfg', await portFor(current.get('haproxy.cfg') ?? ''));
      desired.set('haproxy.cfg', await portFor(desired.get('haproxy.cfg') ?? ''));
      const options = existsSync(join(goldenRoot, name, 'options.json'))
        ? (JSON.parse(readFileSync(join(goldenRoot, name, 'options.json'), 'utf8')) as object)
        : {};
      const decision = planChange({ files: current }, { files: desired }, options);
      assert.notEqual(decision.mode, 'reload');
      const ops = decision.mode === 'runtime' ? decision.ops : [];

      const dir = join(fixture.scratch, name);
      writeTree(dir, current);
      const first = await fixture.start(dir);
      let runtimeState: Record<string, unknown>;
      try {
        writeTree(dir, desired);
        await executeRuntimeOps(first.client, ops, { drainTimeoutMs: 2_000 });
        runtimeState = await dumpRuntimeState(first.client, desired.get('haproxy.cfg') ?? '');
      } finally {
        await fixture.stop(first.proc);
      }
      const second = await fixture.start(dir);
      try {
        const freshState = await dumpRuntimeState(second.client, desired.get('haproxy.cfg') ?? '');
        assert.deepEqual(runtimeState, freshState);
      } finally {
        await fixture.stop(second.proc);
      }
    });
  }
});

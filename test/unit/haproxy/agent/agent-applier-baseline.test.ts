import { after, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync, existsSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { AgentApplier } from '../../../../src/haproxy/agent/agent-applier.js';
import { silentAgentLogger } from '../../../../src/haproxy/agent/agent-logger.js';
import { createAgentMetrics } from '../../../../src/haproxy/agent/agent-metrics.js';
import { saveAgentState } from '../../../../src/haproxy/agent/agent-state-store.js';
import { writeJournal } from '../../../../src/haproxy/agent/apply-journal.js';
import { sha256Hex } from '../../../../src/haproxy/agent/file-tree.js';
import { MasterCliClient } from '../../../../src/haproxy/runtime/master-cli-client.js';
import { RuntimeApiClient } from '../../../../src/haproxy/runtime/runtime-api-client.js';

function applier(baseDir: string): AgentApplier {
  // The sockets do not exist: these tests only exercise start-up bookkeeping, which never calls them.
  const nowhere = { kind: 'unix', path: join(baseDir, 'none.sock') } as const;
  return new AgentApplier({
    baseDir,
    haproxyBin: '/bin/false',
    runtime: new RuntimeApiClient(nowhere),
    master: new MasterCliClient(nowhere),
    metrics: createAgentMetrics(),
    logger: silentAgentLogger,
    reloadIntervalMinMs: 0,
  });
}

describe('agent start-up baseline', () => {
  const dirs: string[] = [];
  const base = (): string => {
    const d = mkdtempSync(join(tmpdir(), 'haptic-baseline-'));
    dirs.push(d);
    writeFileSync(join(d, 'haproxy.cfg'), 'global\n');
    return d;
  };
  after(() => {
    for (const d of dirs) rmSync(d, { recursive: true, force: true });
  });

  it('reports the saved plan when the state file matches the disk', async () => {
    const d = base();
    const a0 = applier(d);
    await a0.init();
    await saveAgentState(d, {
      planId: 'p7',
      leaderEpoch: 3,
      files: [{ path: 'haproxy.cfg', digest: sha256Hex(Buffer.from('global\n')) }],
    });
    const a = applier(d);
    await a.init();
    assert.deepEqual(a.view(), {
      planId: 'p7',
      leaderEpoch: 3,
      baseline: 'known',
      files: [{ path: 'haproxy.cfg', digest: sha256Hex(Buffer.from('global\n')) }],
    });
  });

  it('reports an unknown baseline (no plan id) when a file changed behind its back, keeping the epoch', async () => {
    const d = base();
    await applier(d).init();
    await saveAgentState(d, {
      planId: 'p7',
      leaderEpoch: 3,
      files: [{ path: 'haproxy.cfg', digest: sha256Hex(Buffer.from('global\n')) }],
    });
    writeFileSync(join(d, 'haproxy.cfg'), 'global\n    maxconn 10\n');
    const a = applier(d);
    await a.init();
    assert.equal(a.view().baseline, 'unknown');
    assert.equal(a.view().planId, null);
    assert.equal(a.view().leaderEpoch, 3);
  });

  it('reports an unknown baseline without a state file', async () => {
    const a = applier(base());
    await a.init();
    assert.equal(a.view().baseline, 'unknown');
  });

  it('drops the journal of a transaction that had already committed', async () => {
    const d = base();
    await applier(d).init();
    await saveAgentState(d, {
      planId: 'p8',
      leaderEpoch: 1,
      files: [{ path: 'haproxy.cfg', digest: sha256Hex(Buffer.from('global\n')) }],
    });
    await writeJournal(d, 'p8', ['haproxy.cfg'], new Set(['haproxy.cfg']));
    const a = applier(d);
    await a.init();
    assert.equal(a.view().baseline, 'known');
    assert.equal(existsSync(join(d, '.haptic-agent/journal')), false);
  });

  it('refuses a stale epoch with 409 before touching anything', async () => {
    const d = base();
    await applier(d).init();
    await saveAgentState(d, {
      planId: 'p1',
      leaderEpoch: 5,
      files: [{ path: 'haproxy.cfg', digest: sha256Hex(Buffer.from('global\n')) }],
    });
    const a = applier(d);
    await a.init();
    const res = await a.apply({
      planId: 'p2',
      leaderEpoch: 4,
      files: [],
      deletes: ['haproxy.cfg'],
      mode: 'auto',
    });
    assert.equal(res.status, 409);
    assert.equal(res.body['reason'], 'stale_epoch');
    assert.equal(existsSync(join(d, 'haproxy.cfg')), true);
  });
});

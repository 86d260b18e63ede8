import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { MasterCliClient } from '../../../../src/haproxy/runtime/master-cli-client.js';
import { ReloadFailedError } from '../../../../src/haproxy/runtime/runtime-errors.js';
import { FakeCliSocket } from './fake-cli-socket.js';

const table = (reloads: number, failed: number, workers: [number, number][]): string =>
  `#<PID> <type> <reloads> <uptime> <version>\n1 master ${reloads} [failed: ${failed}] 0d00h00m01s 2.6.12\n# workers\n` +
  workers.map(([pid, r]) => `${pid} worker ${r} 0d00h00m01s 2.6.12\n`).join('') +
  '# programs\n\n';

/** A fake master whose `show proc` answers move on after `reload`. */
function scriptedMaster(fake: FakeCliSocket, after: string[]): void {
  let reloaded = false;
  let step = 0;
  fake.responder = (text) => {
    if (text === 'reload\n') {
      reloaded = true;
      return '';
    }
    if (!reloaded) return table(4, 0, [[10, 0]]);
    const answer = after[Math.min(step, after.length - 1)]!;
    step++;
    return answer;
  };
}

describe('MasterCliClient.reloadVerified', () => {
  const fake = new FakeCliSocket();
  const master = (): MasterCliClient =>
    new MasterCliClient({ kind: 'unix', path: fake.path }, { pollMs: 1 });
  before(() => fake.listen());
  after(() => fake.close());

  it('resolves once the reload counter moved, nothing failed and a new worker appeared', async () => {
    scriptedMaster(fake, [
      table(4, 0, [[10, 0]]),
      table(5, 0, [[10, 1]]),
      table(5, 0, [
        [11, 0],
        [10, 1],
      ]),
    ]);
    const r = await master().reloadVerified({ timeoutMs: 2000 });
    assert.equal(r.verified, true);
    assert.equal(r.workerPid, 11);
    assert.equal(r.reloads, 5);
  });

  it('throws ReloadFailedError when HAProxy counts the reload as failed', async () => {
    scriptedMaster(fake, [table(5, 1, [[10, 1]])]);
    await assert.rejects(master().reloadVerified({ timeoutMs: 2000 }), ReloadFailedError);
  });

  it('gives up with a deadline error when no new worker shows up', async () => {
    scriptedMaster(fake, [table(4, 0, [[10, 0]])]);
    await assert.rejects(
      master().reloadVerified({ timeoutMs: 100 }),
      (e: unknown) => (e as { code?: string }).code === 'HAPTIC_ERR_DEADLINE_EXCEEDED',
    );
  });
});

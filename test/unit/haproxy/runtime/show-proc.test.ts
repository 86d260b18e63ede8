import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { currentWorker, parseShowProc } from '../../../../src/haproxy/runtime/show-proc.js';

// Verbatim shape of HAProxy 2.6.12's answer, after one good and one failed reload.
const AFTER_FAILED = `#<PID>          <type>          <reloads>       <uptime>        <version>
15208           master          2 [failed: 1]   0d00h00m25s     2.6.12-1+deb12u4
# workers
15651           worker          1               0d00h00m07s     2.6.12-1+deb12u4
# programs

`;

const TWO_WORKERS = `#<PID>          <type>          <reloads>       <uptime>        <version>
100             master          3 [failed: 0]   0d00h01m00s     2.6.12-1+deb12u4
# workers
300             worker          0               0d00h00m01s     2.6.12-1+deb12u4
200             worker          1               0d00h00m30s     2.6.12-1+deb12u4
# programs

`;

describe('show proc parsing', () => {
  it('reads the master reload and failed counters and the workers', () => {
    const t = parseShowProc(AFTER_FAILED);
    assert.ok(t);
    assert.deepEqual(t.master, {
      pid: 15208,
      reloads: 2,
      failed: 1,
      uptime: '0d00h00m25s',
      version: '2.6.12-1+deb12u4',
    });
    assert.deepEqual(
      t.workers.map((w) => w.pid),
      [15651],
    );
  });

  it('names the worker that has lived through no reload as the current one', () => {
    const t = parseShowProc(TWO_WORKERS);
    assert.ok(t);
    assert.equal(currentWorker(t)?.pid, 300);
  });

  it('returns undefined for an answer without a master row', () => {
    assert.equal(parseShowProc('Unknown command.\n'), undefined);
  });
});

import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { ReloadPacer } from '../../../../src/haproxy/agent/reload-pacer.js';

describe('ReloadPacer', () => {
  it('allows the first reload at once and spaces the next by the minimum interval', () => {
    let now = 1000;
    const pacer = new ReloadPacer(5000, () => now);
    assert.equal(pacer.delayMs(), 0);
    pacer.markReloaded();
    now += 1200;
    assert.equal(pacer.delayMs(), 3800);
    now += 3800;
    assert.equal(pacer.delayMs(), 0);
  });

  it('waits out the remaining interval', async () => {
    let now = 0;
    const pacer = new ReloadPacer(30, () => now);
    pacer.markReloaded();
    now = 10;
    assert.equal(await pacer.waitTurn(), 20);
  });
});

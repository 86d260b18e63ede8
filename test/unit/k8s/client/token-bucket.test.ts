import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { AbortedError } from '../../../../src/core/errors.js';
import { TokenBucket } from '../../../../src/k8s/client/token-bucket.js';

/** Resolves true when `p` settles before the event loop has run a macrotask. */
async function settlesAtOnce(p: Promise<unknown>): Promise<boolean> {
  let settled = false;
  void p.then(
    () => (settled = true),
    () => (settled = true),
  );
  await new Promise((r) => setImmediate(r));
  return settled;
}

/** Asserts that the next take waits (then aborts it so nothing is left pending). */
async function assertNextTakeWaits(bucket: TokenBucket, why: string): Promise<void> {
  const ac = new AbortController();
  const next = bucket.take(ac.signal);
  assert.equal(await settlesAtOnce(next), false, why);
  ac.abort();
  await assert.rejects(next, AbortedError);
}

describe('TokenBucket', () => {
  it('grants a full burst at once, then waits for a refill', async () => {
    const now = 0;
    const bucket = new TokenBucket(10, 3, () => now);
    for (let i = 0; i < 3; i++) assert.equal(await settlesAtOnce(bucket.take()), true);
    await assertNextTakeWaits(bucket, 'the fourth token must wait');
  });

  it('refills at qps tokens per second, never above the burst', async () => {
    let now = 0;
    const bucket = new TokenBucket(10, 2, () => now);
    await bucket.take();
    await bucket.take();
    now = 100; // 0.1 s at 10 qps: one token
    assert.equal(await settlesAtOnce(bucket.take()), true);
    now = 10_000; // long idle: refilled to the burst of 2, not 100
    assert.equal(await settlesAtOnce(bucket.take()), true);
    assert.equal(await settlesAtOnce(bucket.take()), true);
    await assertNextTakeWaits(bucket, 'the bucket holds at most the burst');
  });

  it('resolves a waiting take once time has refilled a token', async () => {
    let now = 0;
    const bucket = new TokenBucket(1000, 1, () => now);
    await bucket.take();
    const waiting = bucket.take();
    now = 1; // one token at 1000 qps; the bucket sleeps ~1 ms and re-checks
    await waiting;
  });

  it('never limits when qps is 0', async () => {
    const bucket = new TokenBucket(0, 0, () => 0);
    for (let i = 0; i < 100; i++) assert.equal(await settlesAtOnce(bucket.take()), true);
  });
});

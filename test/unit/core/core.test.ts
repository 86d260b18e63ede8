import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { linkedController, sleep, throwIfAborted } from '../../../src/core/abort.js';
import { Backoff, withJitter } from '../../../src/core/backoff.js';
import { rfc3339Seconds } from '../../../src/core/clock.js';
import {
  AbortedError,
  describeError,
  errorCode,
  InvalidArgumentError,
  isTerminal,
} from '../../../src/core/errors.js';
import { objectKey, splitObjectKey } from '../../../src/core/keys.js';

describe('Backoff', () => {
  it('grows by the factor until the cap and starts over after reset', () => {
    const b = new Backoff({ initialMs: 100, maxMs: 1_000, jitter: 0 });
    assert.deepEqual(
      [b.next(), b.next(), b.next(), b.next(), b.next()],
      [100, 200, 400, 800, 1_000],
    );
    b.reset();
    assert.equal(b.next(), 100);
  });

  it('keeps jittered delays within [base*(1-jitter), base]', () => {
    const low = new Backoff({ initialMs: 1_000, maxMs: 1_000, jitter: 0.5 }, () => 0);
    const high = new Backoff({ initialMs: 1_000, maxMs: 1_000, jitter: 0.5 }, () => 1);
    assert.equal(low.next(), 500);
    assert.equal(high.next(), 1_000);
  });

  it('spreads a duration by at most the given fraction either way', () => {
    assert.equal(
      withJitter(1_000, 0.1, () => 0),
      900,
    );
    assert.equal(
      withJitter(1_000, 0.1, () => 1),
      1_100,
    );
  });
});

describe('abort helpers', () => {
  it('rejects a sleep with AbortedError when the signal aborts', async () => {
    const c = new AbortController();
    const p = sleep(10_000, c.signal);
    c.abort();
    await assert.rejects(p, AbortedError);
  });

  it('aborts a linked controller when any parent aborts, and stops listening after dispose', () => {
    const a = new AbortController();
    const b = new AbortController();
    const linked = linkedController(a.signal, b.signal);
    b.abort('because');
    assert.equal(linked.controller.signal.aborted, true);
    assert.equal(linked.controller.signal.reason, 'because');
    const again = linkedController(a.signal);
    again.dispose();
    a.abort();
    assert.equal(again.controller.signal.aborted, false);
  });

  it('throwIfAborted names the operation', () => {
    const c = new AbortController();
    c.abort();
    assert.throws(() => {
      throwIfAborted(c.signal, 'list pods');
    }, /list pods: aborted/);
  });
});

describe('errors', () => {
  it('carries codes, terminality and cause chains', () => {
    const err = new InvalidArgumentError('bad option', { cause: new Error('root cause') });
    assert.equal(errorCode(err), 'HAPTIC_ERR_INVALID_ARGUMENT');
    assert.equal(isTerminal(err), true);
    assert.equal(isTerminal(new AbortedError('x')), false);
    assert.equal(describeError(err), 'bad option: root cause');
    assert.equal(err.name, 'InvalidArgumentError');
  });
});

describe('keys and time', () => {
  it('builds and splits namespace/name keys', () => {
    assert.equal(objectKey({ metadata: { namespace: 'ns', name: 'a' } }), 'ns/a');
    assert.equal(objectKey({ metadata: { name: 'cluster-scoped' } }), 'cluster-scoped');
    assert.deepEqual(splitObjectKey('ns/a'), { namespace: 'ns', name: 'a' });
    assert.deepEqual(splitObjectKey('solo'), { namespace: '', name: 'solo' });
  });

  it('formats RFC3339 at second precision in UTC', () => {
    assert.equal(rfc3339Seconds(Date.UTC(2026, 0, 2, 3, 4, 5, 987)), '2026-01-02T03:04:05Z');
  });
});

import assert from 'node:assert/strict';
import { describe, it } from 'node:test';

import { InvalidArgumentError } from '../../../src/core/errors.js';
import { RingBuffer } from '../../../src/bus/ring-buffer.js';
import { RingQueue } from '../../../src/bus/ring-queue.js';

describe('RingQueue', () => {
  it('keeps first-in first-out order while growing across the wrap point', () => {
    const q = new RingQueue<number>(Infinity, 4);
    const out: number[] = [];
    for (let i = 0; i < 3; i++) q.push(i);
    out.push(q.shift()!, q.shift()!);
    for (let i = 3; i < 20; i++) q.push(i);
    while (q.length > 0) out.push(q.shift()!);
    assert.deepEqual(
      out,
      Array.from({ length: 20 }, (_, i) => i),
    );
    assert.equal(q.shift(), undefined);
  });

  it('refuses pushes beyond maxLength', () => {
    const q = new RingQueue<number>(2);
    assert.equal(q.push(1), true);
    assert.equal(q.push(2), true);
    assert.equal(q.push(3), false);
    assert.deepEqual(q.toArray(), [1, 2]);
  });

  it('peeks and replaces the newest element', () => {
    const q = new RingQueue<string>();
    assert.equal(q.replaceLast('x'), false);
    q.push('a');
    q.push('b');
    assert.equal(q.peekLast(), 'b');
    q.replaceLast('c');
    assert.deepEqual(q.toArray(), ['a', 'c']);
    assert.equal(q.peek(), 'a');
    q.clear();
    assert.equal(q.length, 0);
  });
});

describe('RingBuffer', () => {
  it('keeps only the newest entries, oldest first', () => {
    const r = new RingBuffer<number>(3);
    for (let i = 1; i <= 5; i++) r.push(i);
    assert.deepEqual(r.toArray(), [3, 4, 5]);
    assert.equal(r.length, 3);
  });

  it('filters the newest matching entries up to a limit', () => {
    const r = new RingBuffer<number>(10);
    for (let i = 1; i <= 10; i++) r.push(i);
    assert.deepEqual(
      r.filter((n) => n % 2 === 0, 2),
      [8, 10],
    );
  });

  it('rejects a capacity below one', () => {
    assert.throws(() => new RingBuffer(0), InvalidArgumentError);
  });
});

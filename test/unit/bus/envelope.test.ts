import assert from 'node:assert/strict';
import { describe, it } from 'node:test';

import { deepFreeze } from '../../../src/bus/deep-freeze.js';
import { childEnvelope, rootEnvelope } from '../../../src/bus/envelope.js';

function sequentialIds(): () => string {
  let n = 0;
  return () => `id-${++n}`;
}

describe('event envelope', () => {
  it('starts a chain whose correlation id is its own id', () => {
    const root = rootEnvelope({
      newId: sequentialIds(),
      clock: { now: () => 5, monotonic: () => 0 },
    });
    assert.deepEqual(root, { id: 'id-1', timestamp: 5, correlationId: 'id-1' });
  });

  it("derives a child's correlation from its cause and its causation from the cause's id", () => {
    const newId = sequentialIds();
    const root = rootEnvelope({ newId });
    const child = childEnvelope(root, { newId });
    const grandchild = childEnvelope(child, { newId });
    assert.equal(child.correlationId, root.id);
    assert.equal(child.causationId, root.id);
    assert.equal(grandchild.correlationId, root.id);
    assert.equal(grandchild.causationId, child.id);
  });
});

describe('deepFreeze', () => {
  it('freezes nested objects and arrays so no subscriber can mutate a shared event', () => {
    const event = deepFreeze({ type: 'x', nested: { list: [{ a: 1 }] } });
    assert.ok(Object.isFrozen(event.nested.list[0]));
    assert.throws(() => {
      (event.nested.list as unknown as { a: number }[]).push({ a: 2 });
    }, TypeError);
  });
});

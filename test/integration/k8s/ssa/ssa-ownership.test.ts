// STATUS-OWNERSHIP.md §4, behaviours 1-9: who owns what after applies to /status.
import assert from 'node:assert/strict';
import { before, describe, it } from 'node:test';
import { sleep } from '../../../../src/core/abort.js';
import { ConflictError } from '../../../../src/k8s/client/kube-errors.js';
import type { KubeClient } from '../../../../src/k8s/client/kube-client.js';
import { probes } from './fixtures/probe-crds.js';
import {
  cond,
  condOf,
  entryOf,
  Probes,
  rejection,
  WatchRecorder,
  type Obj,
  useFixtureControlPlane,
} from './fixtures/ssa-helpers.js';

const READY_KEY = 'k:{"type":"Ready"}';

function conditionKeys(obj: Obj, manager: string): string[] {
  const f = entryOf(obj, manager)?.fieldsV1 ?? {};
  return Object.keys(f['f:status']?.['f:conditions'] ?? {})
    .filter((k) => k !== '.')
    .sort();
}

function ownedSubfields(obj: Obj, manager: string, key: string): string[] {
  const f = entryOf(obj, manager)?.fieldsV1 ?? {};
  return Object.keys(f['f:status']?.['f:conditions']?.[key] ?? {}).sort();
}

describe('SSA status ownership on a real kube-apiserver (behaviours 1-9)', () => {
  const fixture = useFixtureControlPlane();
  let client: KubeClient;
  let p: Probes;

  before(() => {
    client = fixture.client;
    p = new Probes(client, probes, 'Probe');
  });

  it('1: two writers applying different condition types to /status both survive, each owning only its own key', async () => {
    await p.create('b1');
    await p.applyStatus('writer-a', 'b1', { conditions: [cond('Accepted')] });
    const obj = await p.applyStatus('writer-b', 'b1', { conditions: [cond('Programmed')] });
    assert.deepEqual(obj.status?.conditions?.map((c) => c['type']).sort(), [
      'Accepted',
      'Programmed',
    ]);
    const a = entryOf(obj, 'writer-a');
    const b = entryOf(obj, 'writer-b');
    assert.equal(a?.operation, 'Apply');
    assert.equal(b?.operation, 'Apply');
    assert.deepEqual(conditionKeys(obj, 'writer-a'), ['k:{"type":"Accepted"}']);
    assert.deepEqual(conditionKeys(obj, 'writer-b'), ['k:{"type":"Programmed"}']);
  });

  it('2: omitting a condition removes it while the other writer keeps its own, and the entry time moves', async () => {
    await p.create('b2');
    const first = await p.applyStatus('writer-a', 'b2', { conditions: [cond('X'), cond('Y')] });
    await p.applyStatus('writer-b', 'b2', { conditions: [cond('Z')] });
    // managedFields times have second precision: let one second pass so a change is visible.
    await sleep(1100);
    const obj = await p.applyStatus('writer-a', 'b2', { conditions: [cond('X')] });
    assert.deepEqual(obj.status?.conditions?.map((c) => c['type']).sort(), ['X', 'Z']);
    assert.deepEqual(conditionKeys(obj, 'writer-a'), ['k:{"type":"X"}']);
    assert.deepEqual(conditionKeys(obj, 'writer-b'), ['k:{"type":"Z"}']);
    assert.notEqual(entryOf(obj, 'writer-a')?.time, entryOf(first, 'writer-a')?.time);
  });

  it('3: an apply without status releases all of the writer’s status fields and deletes its entry', async () => {
    await p.create('b3');
    await p.applyStatus('writer-a', 'b3', {
      conditions: [cond('A1')],
      addresses: ['10.0.0.1'],
      observedGeneration: 1,
    });
    await p.applyStatus('writer-b', 'b3', { conditions: [cond('B1')] });
    const obj = await p.applyStatus('writer-a', 'b3', undefined);
    assert.deepEqual(
      obj.status?.conditions?.map((c) => c['type']),
      ['B1'],
    );
    assert.equal(obj.status.addresses, undefined);
    assert.equal(obj.status.observedGeneration, undefined);
    assert.equal(entryOf(obj, 'writer-a'), undefined);
    assert.ok(entryOf(obj, 'writer-b'));
  });

  it('4: two writers applying the same condition with identical values share every subfield', async () => {
    await p.create('b4');
    await p.applyStatus('writer-a', 'b4', { conditions: [cond('Ready')] });
    const obj = await p.applyStatus('writer-b', 'b4', { conditions: [cond('Ready')] });
    const expected = ['.', 'f:lastTransitionTime', 'f:message', 'f:reason', 'f:status', 'f:type'];
    assert.deepEqual(ownedSubfields(obj, 'writer-a', READY_KEY), expected);
    assert.deepEqual(ownedSubfields(obj, 'writer-b', READY_KEY), expected);
  });

  it('5: a different value without force is an ownership 409 naming the field, and nothing changes', async () => {
    await p.create('b5');
    await p.applyStatus('writer-a', 'b5', { conditions: [cond('Ready')] });
    const shared = await p.applyStatus('writer-b', 'b5', { conditions: [cond('Ready')] });
    const err = await rejection(
      p.applyStatus('writer-b', 'b5', { conditions: [cond('Ready', 'False')] }),
    );
    assert.ok(err instanceof ConflictError);
    assert.equal(err.statusCode, 409);
    assert.equal(err.reason, 'Conflict');
    assert.equal(err.conflictKind, 'ownership');
    assert.equal(err.causes[0]?.reason, 'FieldManagerConflict');
    assert.ok(err.conflictingFields.includes('.status.conditions[type="Ready"].status'));
    const live = await p.get('b5');
    assert.equal(live.metadata.resourceVersion, shared.metadata.resourceVersion);
  });

  it('6: force takes over changed fields; the old owner keeps the key and cannot remove the element', async () => {
    await p.create('b6');
    await p.applyStatus('writer-a', 'b6', { conditions: [cond('Ready'), cond('Other')] });
    await p.applyStatus('writer-b', 'b6', { conditions: [cond('Ready')] });
    const forced = await p.applyStatus(
      'writer-b',
      'b6',
      { conditions: [cond('Ready', 'False')] },
      { force: true },
    );
    assert.equal(condOf(forced, 'Ready')?.['status'], 'False');
    const aReady = ownedSubfields(forced, 'writer-a', READY_KEY);
    assert.ok(!aReady.includes('f:status'), `writer-a still owns status: ${aReady.join(',')}`);
    assert.ok(!aReady.includes('f:message'));
    assert.ok(aReady.includes('f:type'));
    // A drops Ready from its intent: B still owns it, so it stays.
    const after = await p.applyStatus('writer-a', 'b6', { conditions: [cond('Other')] });
    assert.equal(condOf(after, 'Ready')?.['status'], 'False');
  });

  it('7: a human Update causes a 409 naming the Update manager; force restores the value and removes the emptied entry', async () => {
    await p.create('b7');
    const mine = cond('Ready', 'True', { message: 'mine' });
    await p.applyStatus('writer-a', 'b7', { conditions: [mine] });
    await p.raw({
      method: 'PATCH',
      path: p.path('b7', 'status'),
      query: { fieldManager: 'kubectl-patch' },
      contentType: 'application/merge-patch+json',
      body: { status: { conditions: [{ ...mine, message: 'human' }] } },
    });
    const human = await p.get('b7');
    assert.equal(entryOf(human, 'kubectl-patch')?.operation, 'Update');
    const err = await rejection(p.applyStatus('writer-a', 'b7', { conditions: [mine] }));
    assert.ok(err instanceof ConflictError);
    assert.equal(err.conflictKind, 'ownership');
    // Observed wording (v1.34): the Update manager is named with its subresource.
    assert.match(
      err.message,
      /conflict with "kubectl-patch" with subresource "status" using test\.haptic\.io\/v1/,
    );
    assert.deepEqual(err.conflictingFields, ['.status.conditions[type="Ready"].message']);
    const forced = await p.applyStatus('writer-a', 'b7', { conditions: [mine] }, { force: true });
    assert.equal(condOf(forced, 'Ready')?.['message'], 'mine');
    assert.equal(entryOf(forced, 'kubectl-patch'), undefined);
  });

  it('8: applying the value a human set succeeds without force and the field is co-owned', async () => {
    await p.create('b8');
    const mine = cond('Ready', 'True', { message: 'mine' });
    await p.applyStatus('writer-a', 'b8', { conditions: [mine] });
    await p.raw({
      method: 'PATCH',
      path: p.path('b8', 'status'),
      query: { fieldManager: 'kubectl-patch' },
      contentType: 'application/merge-patch+json',
      body: { status: { conditions: [{ ...mine, message: 'human' }] } },
    });
    const obj = await p.applyStatus('writer-a', 'b8', {
      conditions: [{ ...mine, message: 'human' }],
    });
    assert.equal(condOf(obj, 'Ready')?.['message'], 'human');
    assert.ok(ownedSubfields(obj, 'writer-a', READY_KEY).includes('f:message'));
    assert.ok(ownedSubfields(obj, 'kubectl-patch', READY_KEY).includes('f:message'));
  });

  it('9: a repeated identical apply keeps the resourceVersion and entry time and sends no watch event', async () => {
    await p.create('b9');
    const status = { conditions: [cond('Ready')], addresses: ['10.0.0.9'] };
    const first = await p.applyStatus('writer-a', 'b9', status);
    const rec = await WatchRecorder.start(p, 'b9', first.metadata.resourceVersion);
    try {
      await sleep(1100); // so a rewritten entry would carry a different second
      const second = await p.applyStatus('writer-a', 'b9', status);
      assert.equal(second.metadata.resourceVersion, first.metadata.resourceVersion);
      assert.equal(entryOf(second, 'writer-a')?.time, entryOf(first, 'writer-a')?.time);
      // Sentinel: the next event must be this change, not the no-op.
      const sentinel = await p.applyStatus('writer-b', 'b9', { conditions: [cond('Sentinel')] });
      const events = await rec.waitForCount(1);
      assert.equal(events[0]?.type, 'MODIFIED');
      assert.equal(events[0].object.metadata.resourceVersion, sentinel.metadata.resourceVersion);
    } finally {
      rec.stop();
    }
  });
});

// STATUS-OWNERSHIP.md §4 "optional" and "to be verified" items: what the real apiserver does
// with explicit nulls (P5), CRD-defaulted status entries (P11), list-map order and a dropped
// condition a human had edited. Each test asserts the observed behaviour.
import assert from 'node:assert/strict';
import { before, describe, it } from 'node:test';
import { InvalidError } from '../../../../src/k8s/client/kube-errors.js';
import type { KubeClient } from '../../../../src/k8s/client/kube-client.js';
import { probeDefaulteds, probes } from './fixtures/probe-crds.js';
import {
  cond,
  entryOf,
  Probes,
  rejection,
  type Obj,
  useFixtureControlPlane,
} from './fixtures/ssa-helpers.js';

const types = (o: Obj): unknown[] => o.status?.conditions?.map((c) => c['type']) ?? [];

describe('SSA behaviours recorded from the real kube-apiserver (P5, P11, order, human edits)', () => {
  const fixture = useFixtureControlPlane();
  let client: KubeClient;
  let p: Probes;
  let d: Probes;

  before(() => {
    client = fixture.client;
    p = new Probes(client, probes, 'Probe');
    d = new Probes(client, probeDefaulteds, 'ProbeDefaulted');
  });

  it('P5: an explicit null for a non-nullable list is a 422', async () => {
    await p.create('null1');
    await p.applyStatus('writer-a', 'null1', { addresses: ['10.0.0.1'] });
    const err = await rejection(p.applyStatus('writer-a', 'null1', { addresses: null }));
    assert.ok(err instanceof InvalidError);
    assert.equal(err.statusCode, 422);
    assert.equal(err.causes[0]?.field, 'status.addresses');
  });

  it('P5: an explicit null for a list-map removes the writer’s entries and claims the list node itself', async () => {
    await p.create('null2');
    await p.applyStatus('writer-a', 'null2', { conditions: [cond('X')] });
    await p.applyStatus('writer-b', 'null2', { conditions: [cond('Y')] });
    const obj = await p.applyStatus('writer-b', 'null2', { conditions: null });
    assert.deepEqual(types(obj), ['X']);
    // The placeholder hazard: writer-b now owns `.status.conditions` as a node, with no entries.
    assert.deepEqual(entryOf(obj, 'writer-b')?.fieldsV1, { 'f:status': { 'f:conditions': {} } });
  });

  it('P11: a CRD-defaulted condition has no owner; a writer takes it over without conflict; releasing it deletes it until status is empty again, when the default returns', async () => {
    const created = await d.create('def');
    assert.deepEqual(types(created), ['Accepted']);
    assert.equal(
      (created.metadata.managedFields ?? []).some((e) => e.fieldsV1?.['f:status']),
      false,
    );
    await d.applyStatus('writer-a', 'def', { conditions: [cond('Programmed')] });
    const taken = await d.applyStatus('writer-b', 'def', { conditions: [cond('Accepted')] });
    assert.equal(
      taken.status?.conditions?.find((c) => c['type'] === 'Accepted')?.['status'],
      'True',
    );
    const released = await d.applyStatus('writer-b', 'def', undefined);
    assert.deepEqual(types(released), ['Programmed']);
    // With no status left, the object-level default applies again: the placeholder is back.
    const empty = await d.applyStatus('writer-a', 'def', undefined);
    assert.deepEqual(types(empty), ['Accepted']);
    assert.equal(empty.status?.conditions?.[0]?.['status'], 'Unknown');
  });

  it('list-map order: a writer’s entries follow its apply order; another writer’s entries stay', async () => {
    await p.create('order');
    await p.applyStatus('writer-a', 'order', { conditions: [cond('A1'), cond('A2')] });
    await p.applyStatus('writer-b', 'order', { conditions: [cond('B1')] });
    const obj = await p.applyStatus('writer-a', 'order', {
      conditions: [cond('A3'), cond('A1'), cond('A2')],
    });
    const all = types(obj);
    assert.deepEqual(
      all.filter((t) => t !== 'B1'),
      ['A3', 'A1', 'A2'],
    );
    assert.ok(all.includes('B1'));
  });

  it('dropping a condition whose message a human edited removes the whole condition and the human’s entry', async () => {
    await p.create('human');
    await p.applyStatus('writer-a', 'human', { conditions: [cond('Ready'), cond('Keep')] });
    await p.raw({
      method: 'PATCH',
      path: p.path('human', 'status'),
      query: { fieldManager: 'kubectl-patch' },
      contentType: 'application/merge-patch+json',
      body: {
        status: { conditions: [cond('Ready', 'True', { message: 'human' }), cond('Keep')] },
      },
    });
    const obj = await p.applyStatus('writer-a', 'human', { conditions: [cond('Keep')] });
    assert.deepEqual(types(obj), ['Keep']);
    assert.equal(entryOf(obj, 'kubectl-patch'), undefined);
  });
});

// STATUS-OWNERSHIP.md §4, behaviours 20-28: atomic lists, preconditions, parameters, rejected
// bodies, condition schema, dry-run and before-first-apply.
import assert from 'node:assert/strict';
import { before, describe, it } from 'node:test';
import {
  ConflictError,
  InvalidError,
  KubeApiError,
} from '../../../../src/k8s/client/kube-errors.js';
import type { KubeClient } from '../../../../src/k8s/client/kube-client.js';
import { StatusWriter } from '../../../../src/k8s/ssa/status-writer.js';
import { probeAtomics, probes } from './fixtures/probe-crds.js';
import {
  cond,
  condOf,
  entryOf,
  Probes,
  rejection,
  useFixtureControlPlane,
} from './fixtures/ssa-helpers.js';

const APPLY = 'application/apply-patch+yaml';

describe('SSA conflicts and rejections on a real kube-apiserver (behaviours 20-28)', () => {
  const fixture = useFixtureControlPlane();
  let client: KubeClient;
  let p: Probes;
  let pa: Probes;

  before(() => {
    client = fixture.client;
    p = new Probes(client, probes, 'Probe');
    pa = new Probes(client, probeAtomics, 'ProbeAtomic');
  });

  it('20: an atomic list conflicts as a whole; with force the new writer replaces it and the old owner loses it', async () => {
    await p.create('a20');
    await p.applyStatus('writer-a', 'a20', { addresses: ['10.0.0.1'] });
    const err = await rejection(p.applyStatus('writer-b', 'a20', { addresses: ['10.0.0.2'] }));
    assert.ok(err instanceof ConflictError);
    assert.equal(err.conflictKind, 'ownership');
    assert.deepEqual(err.conflictingFields, ['.status.addresses']);
    const forced = await p.applyStatus(
      'writer-b',
      'a20',
      { addresses: ['10.0.0.2'] },
      { force: true },
    );
    assert.deepEqual(forced.status?.addresses, ['10.0.0.2']);
    assert.equal(entryOf(forced, 'writer-a'), undefined);
    assert.ok(entryOf(forced, 'writer-b')?.fieldsV1?.['f:status']?.['f:addresses']);
  });

  it('21: without list markers the conditions list is atomic: a second writer gets a 409, and force drops the first writer’s condition', async () => {
    await pa.create('n21');
    await pa.applyStatus('writer-a', 'n21', { conditions: [cond('X')] });
    const err = await rejection(pa.applyStatus('writer-b', 'n21', { conditions: [cond('Y')] }));
    assert.ok(err instanceof ConflictError);
    assert.equal(err.conflictKind, 'ownership');
    assert.deepEqual(err.conflictingFields, ['.status.conditions']);
    const forced = await pa.applyStatus(
      'writer-b',
      'n21',
      { conditions: [cond('Y')] },
      { force: true },
    );
    assert.deepEqual(
      forced.status?.conditions?.map((c) => c['type']),
      ['Y'],
    );
  });

  it('22: a stale resourceVersion is an optimistic-lock 409 without FieldManagerConflict; a current or absent one succeeds', async () => {
    const created = await p.create('r22');
    const changed = await p.applyStatus('writer-a', 'r22', { conditions: [cond('Ready')] });
    const stale = p.body('r22', {
      metadata: {
        name: 'r22',
        namespace: 'default',
        resourceVersion: created.metadata.resourceVersion,
      },
      status: { conditions: [cond('Other')] },
    });
    const err = await rejection(p.apply('writer-b', stale, { status: true }));
    assert.ok(err instanceof ConflictError);
    assert.equal(err.conflictKind, 'optimistic-lock');
    assert.equal(
      err.causes.some((c) => c.reason === 'FieldManagerConflict'),
      false,
    );
    assert.match(err.message, /the object has been modified/);
    const current = p.body('r22', {
      metadata: {
        name: 'r22',
        namespace: 'default',
        resourceVersion: changed.metadata.resourceVersion,
      },
      status: { conditions: [cond('Other')] },
    });
    const ok = await p.apply('writer-b', current, { status: true });
    assert.equal(condOf(ok, 'Other')?.['status'], 'True');
    const absent = await p.applyStatus('writer-c', 'r22', { conditions: [cond('Third')] });
    assert.ok(condOf(absent, 'Third'));
  });

  it('23: the server rejects a missing, 129-byte or non-printable field manager with 422 and accepts 128 bytes', async () => {
    await p.create('f23');
    const send = (fieldManager: string | undefined): Promise<unknown> =>
      p.raw({
        method: 'PATCH',
        path: p.path('f23', 'status'),
        query: { fieldManager },
        contentType: APPLY,
        body: p.body('f23', { status: { conditions: [cond('Ready')] } }),
      });
    const missing = await rejection(send(undefined));
    assert.ok(missing instanceof InvalidError);
    assert.equal(missing.statusCode, 422);
    assert.match(missing.message, /is required for apply patch/);
    const long = await rejection(send('m'.repeat(129)));
    assert.ok(long instanceof InvalidError);
    assert.equal(long.statusCode, 422);
    assert.match(long.message, /128/);
    const control = await rejection(send('bad\u0007name'));
    assert.ok(control instanceof InvalidError);
    assert.equal(control.statusCode, 422);
    await send('m'.repeat(128));
    const obj = await p.get('f23');
    assert.ok(entryOf(obj, 'm'.repeat(128)));
  });

  it('24: a JSON body as apply-patch+yaml works, force on a merge patch is rejected, Strict validation rejects an unknown status field (observed: 500)', async () => {
    await p.create('c24');
    const ok = await p.applyStatus('writer-a', 'c24', { conditions: [cond('Ready')] });
    assert.ok(condOf(ok, 'Ready'));
    const merge = await rejection(
      p.raw({
        method: 'PATCH',
        path: p.path('c24', 'status'),
        query: { fieldManager: 'writer-a', force: 'true' },
        contentType: 'application/merge-patch+json',
        body: { status: { observedGeneration: 1 } },
      }),
    );
    assert.ok(merge instanceof InvalidError);
    assert.match(merge.message, /may not be specified for non-apply patch/);
    const strict = await rejection(
      p.apply(
        'writer-a',
        p.body('c24', { status: { conditions: [cond('Ready')], bogusField: 1 } }),
        { status: true, fieldValidation: 'Strict' },
      ),
    );
    // Observed on v1.34 (§4 expects 400): an apply whose body has a field the schema does not
    // declare fails building the typed patch, a 500 (kubernetes PR #139255 would make it 400).
    assert.ok(strict instanceof KubeApiError);
    assert.equal(strict.statusCode, 500);
    assert.match(strict.message, /field not declared in schema/);
    // The same without fieldValidation: apply never drops unknown fields silently.
    const lenient = await rejection(
      p.apply(
        'writer-a',
        p.body('c24', { status: { conditions: [cond('Ready')], bogusField: 1 } }),
        {
          status: true,
        },
      ),
    );
    assert.ok(lenient instanceof KubeApiError);
    assert.equal(lenient.statusCode, 500);
    assert.match(strict.message, /bogusField/);
  });

  it('25: managedFields in the body is a 400 and duplicate keys a 500; the object is unchanged and the writer reports both as rejected after one request', async () => {
    const created = await p.create('d25');
    const withMf = await rejection(
      p.apply(
        'writer-a',
        p.body('d25', {
          metadata: {
            name: 'd25',
            namespace: 'default',
            managedFields: [{ manager: 'x', operation: 'Apply' }],
          },
          status: { conditions: [cond('Ready')] },
        }),
        { status: true },
      ),
    );
    assert.ok(withMf instanceof InvalidError);
    assert.equal(withMf.statusCode, 400);
    assert.match(withMf.message, /must be nil/);
    const dup = await rejection(
      p.applyStatus('writer-a', 'd25', { conditions: [cond('Ready'), cond('Ready', 'False')] }),
    );
    assert.ok(dup instanceof KubeApiError);
    // Observed on v1.34: still a 500 (kubernetes PR #139255 would make it a 400).
    assert.equal(dup.statusCode, 500);
    assert.match(dup.message, /duplicate entries for key/);
    assert.equal((await p.get('d25')).metadata.resourceVersion, created.metadata.resourceVersion);
    const writer = new StatusWriter(client, { fieldManager: 'writer-a' });
    const res = await writer.write(
      { resource: probes, kind: 'Probe', namespace: 'default', name: 'd25' },
      { conditions: [cond('Ready'), cond('Ready', 'False')] },
    );
    assert.equal(res.written, false);
    assert.equal(res.reason, 'rejected');
    assert.equal(res.requests, 1);
    assert.equal(res.error?.statusCode, 500);
  });

  it('26: the condition schema rejects each invalid condition with 422', async () => {
    await p.create('v26');
    const bad: Record<string, Record<string, unknown>> = {
      'reason with a space': cond('Ready', 'True', { reason: 'bad reason!' }),
      'empty reason': cond('Ready', 'True', { reason: '' }),
      'message too long': cond('Ready', 'True', { message: 'm'.repeat(32769) }),
      'status Maybe': cond('Ready', 'Maybe'),
      'type -bad': cond('-bad'),
      'observedGeneration -1': cond('Ready', 'True', { observedGeneration: -1 }),
    };
    const noTime = cond('Ready');
    delete noTime['lastTransitionTime'];
    bad['no lastTransitionTime'] = noTime;
    for (const [what, c] of Object.entries(bad)) {
      const err = await rejection(p.applyStatus('writer-a', 'v26', { conditions: [c] }));
      assert.ok(err instanceof InvalidError, what);
      assert.equal(err.statusCode, 422, what);
    }
    assert.equal((await p.get('v26')).status, undefined);
  });

  it('27: a dry-run apply returns the merged object and managedFields without storing them; a conflicting dry-run is still a 409', async () => {
    await p.create('y27');
    const real = await p.applyStatus('writer-a', 'y27', { conditions: [cond('Ready')] });
    const dry = await p.applyStatus(
      'writer-b',
      'y27',
      { conditions: [cond('Programmed')] },
      { dryRun: true },
    );
    assert.deepEqual(dry.status?.conditions?.map((c) => c['type']).sort(), ['Programmed', 'Ready']);
    assert.ok(entryOf(dry, 'writer-b'));
    const live = await p.get('y27');
    assert.equal(live.metadata.resourceVersion, real.metadata.resourceVersion);
    assert.equal(entryOf(live, 'writer-b'), undefined);
    const err = await rejection(
      p.applyStatus('writer-b', 'y27', { conditions: [cond('Ready', 'False')] }, { dryRun: true }),
    );
    assert.ok(err instanceof ConflictError);
    assert.equal(err.conflictKind, 'ownership');
  });

  it('28: after managedFields are reset, an apply conflicts with before-first-apply; force takes the field over', async () => {
    await p.raw({
      method: 'POST',
      path: p.path('x').replace(/\/x$/, ''),
      query: { fieldManager: 'legacy-create' },
      body: p.body('b28', { spec: { foo: 'old', size: 1 } }),
    });
    await p.raw({
      method: 'PATCH',
      path: p.path('b28'),
      contentType: 'application/merge-patch+json',
      body: { metadata: { managedFields: [{}] } },
    });
    const reset = await p.get('b28');
    assert.equal(reset.metadata.managedFields, undefined);
    const err = await rejection(p.apply('writer-a', p.body('b28', { spec: { foo: 'new' } })));
    assert.ok(err instanceof ConflictError);
    assert.equal(err.conflictKind, 'ownership');
    assert.match(err.message, /conflict with "before-first-apply"/);
    const forced = await p.apply('writer-a', p.body('b28', { spec: { foo: 'new' } }), {
      force: true,
    });
    assert.equal(forced.spec?.['foo'], 'new');
    const bfa = entryOf(forced, 'before-first-apply', { subresource: '' });
    assert.equal(bfa?.fieldsV1?.['f:spec']?.['f:foo'], undefined);
    assert.ok(entryOf(forced, 'writer-a', { subresource: '' })?.fieldsV1?.['f:spec']?.['f:foo']);
  });
});

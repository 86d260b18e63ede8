import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { KubeRequest } from '../../../../src/k8s/client/kube-client.js';
import {
  kubeErrorFromResponse,
  KubeApiError,
  ConflictError,
} from '../../../../src/k8s/client/kube-errors.js';
import type { ApiResource } from '../../../../src/k8s/client/api-resource.js';
import {
  StatusWriteConflictError,
  InvalidFieldManagerError,
} from '../../../../src/k8s/ssa/ssa-errors.js';
import { mergeOwnEntries, StatusWriter } from '../../../../src/k8s/ssa/status-writer.js';

const res: ApiResource = {
  group: 'test.haptic.io',
  version: 'v1',
  resource: 'probes',
  namespaced: true,
};
const target = { resource: res, kind: 'Probe', namespace: 'ns', name: 'p' };
const clock = { now: () => Date.parse('2026-02-02T02:02:02.500Z'), monotonic: () => 0 };
const noDelay = { initialMs: 0, maxMs: 0 };

type Handler = (req: KubeRequest) => unknown;

/** Answers requests from a script; throws when a request was not expected. */
class FakeKubeRequester {
  readonly requests: KubeRequest[] = [];
  constructor(private readonly script: Handler[]) {}
  request<T>(req: KubeRequest): Promise<T> {
    this.requests.push(req);
    const h = this.script.shift();
    if (!h) return Promise.reject(new Error(`unexpected ${req.method} ${req.path}`));
    try {
      return Promise.resolve(h(req) as T);
    } catch (err) {
      return Promise.reject(err instanceof Error ? err : new Error(String(err)));
    }
  }
}

function fail(status: number, body: Record<string, unknown>): never {
  throw kubeErrorFromResponse({ method: 'PATCH', path: '/x' }, status, body);
}

const conflict409 = (): never =>
  fail(409, { reason: 'Conflict', message: 'the object has been modified' });

function liveWith(status: unknown, fieldsV1?: unknown, rv = '7'): Record<string, unknown> {
  return {
    metadata: {
      name: 'p',
      namespace: 'ns',
      resourceVersion: rv,
      managedFields: fieldsV1
        ? [{ manager: 'w', operation: 'Apply', subresource: 'status', fieldsV1 }]
        : [],
    },
    status,
  };
}

const applied = (): Record<string, unknown> => ({ metadata: { resourceVersion: '8' } });

describe('StatusWriter', () => {
  it('refuses an invalid field manager name at construction', () => {
    assert.throws(
      () => new StatusWriter(new FakeKubeRequester([]), { fieldManager: '' }),
      InvalidFieldManagerError,
    );
  });

  it('applies only the desired fields to /status with force, the apply media type and no resourceVersion', async () => {
    const fake = new FakeKubeRequester([() => liveWith({ other: 'x' }), applied]);
    const w = new StatusWriter(fake, { fieldManager: 'w', clock });
    const out = await w.write(target, {
      conditions: [{ type: 'Ready', status: 'True', reason: 'Ok', message: '' }],
      empty: [],
      nothing: null,
    });
    assert.deepEqual(out, { written: true, reason: 'applied', requests: 1, resourceVersion: '8' });
    const patch = fake.requests[1];
    assert.ok(patch);
    assert.equal(patch.method, 'PATCH');
    assert.equal(patch.path, '/apis/test.haptic.io/v1/namespaces/ns/probes/p/status');
    assert.equal(patch.contentType, 'application/apply-patch+yaml');
    assert.deepEqual(patch.query, {
      fieldManager: 'w',
      force: 'true',
      dryRun: undefined,
      fieldValidation: undefined,
    });
    assert.deepEqual(patch.body, {
      apiVersion: 'test.haptic.io/v1',
      kind: 'Probe',
      metadata: { name: 'p', namespace: 'ns' },
      status: {
        conditions: [
          {
            type: 'Ready',
            status: 'True',
            reason: 'Ok',
            message: '',
            lastTransitionTime: '2026-02-02T02:02:02Z',
          },
        ],
      },
    });
  });

  it('skips the request when the live owned subset already matches', async () => {
    const status = {
      conditions: [
        {
          type: 'Ready',
          status: 'True',
          reason: 'Ok',
          message: '',
          lastTransitionTime: '2026-01-01T00:00:00.000Z',
        },
      ],
    };
    const fields = {
      'f:status': {
        'f:conditions': {
          'k:{"type":"Ready"}': {
            '.': {},
            'f:type': {},
            'f:status': {},
            'f:reason': {},
            'f:message': {},
            'f:lastTransitionTime': {},
          },
        },
      },
    };
    const fake = new FakeKubeRequester([() => liveWith(status, fields)]);
    const w = new StatusWriter(fake, { fieldManager: 'w', clock });
    const out = await w.write(target, {
      conditions: [{ type: 'Ready', status: 'True', reason: 'Ok', message: '' }],
    });
    assert.deepEqual(out, {
      written: false,
      reason: 'unchanged',
      requests: 0,
      resourceVersion: '7',
    });
    assert.equal(fake.requests.length, 1);
  });

  it('writes when another manager owns an equal value (the live object matches, but not our ownership)', async () => {
    const status = { addresses: ['a'] };
    const fake = new FakeKubeRequester([() => liveWith(status), applied]);
    const w = new StatusWriter(fake, { fieldManager: 'w', clock });
    const out = await w.write(target, status);
    assert.equal(out.written, true);
  });

  it('uses a live object handed in instead of reading', async () => {
    const fake = new FakeKubeRequester([applied]);
    const w = new StatusWriter(fake, { fieldManager: 'w', clock });
    const live = liveWith({}, { 'f:status': { 'f:other': {} } });
    const out = await w.write(target, { addresses: ['a'] }, { live });
    assert.equal(out.reason, 'applied');
    assert.equal(fake.requests[0]?.method, 'PATCH');
  });

  it('reads the object when the live copy handed in has no managedFields (e.g. stripped by an informer)', async () => {
    const fake = new FakeKubeRequester([() => liveWith({}), applied]);
    const w = new StatusWriter(fake, { fieldManager: 'w', clock });
    await w.write(target, { addresses: ['a'] }, { live: { metadata: { resourceVersion: '1' } } });
    assert.deepEqual(
      fake.requests.map((r) => r.method),
      ['GET', 'PATCH'],
    );
  });

  it('retries optimistic-lock conflicts with a fresh read and succeeds', async () => {
    const fake = new FakeKubeRequester([
      () => liveWith({}),
      conflict409,
      () => liveWith({}),
      applied,
    ]);
    const w = new StatusWriter(fake, { fieldManager: 'w', clock, backoff: noDelay });
    const out = await w.write(target, { addresses: ['a'] });
    assert.deepEqual([out.written, out.requests], [true, 2]);
    assert.deepEqual(
      fake.requests.map((r) => r.method),
      ['GET', 'PATCH', 'GET', 'PATCH'],
    );
  });

  it('gives up after maxAttempts optimistic-lock conflicts with a typed error', async () => {
    const script: Handler[] = [];
    for (let i = 0; i < 3; i++) script.push(() => liveWith({}), conflict409);
    const fake = new FakeKubeRequester(script);
    const w = new StatusWriter(fake, {
      fieldManager: 'w',
      clock,
      backoff: noDelay,
      maxAttempts: 3,
    });
    await assert.rejects(w.write(target, { addresses: ['a'] }), StatusWriteConflictError);
    assert.equal(fake.requests.length, 6);
  });

  it('does not retry an ownership conflict (it cannot happen with force; it is surfaced)', async () => {
    const fake = new FakeKubeRequester([
      () => liveWith({}),
      () =>
        fail(409, {
          reason: 'Conflict',
          details: { causes: [{ reason: 'FieldManagerConflict', field: '.status.addresses' }] },
        }),
    ]);
    const w = new StatusWriter(fake, { fieldManager: 'w', clock, backoff: noDelay });
    await assert.rejects(
      w.write(target, { addresses: ['a'] }),
      (e: unknown) => e instanceof ConflictError && e.conflictKind === 'ownership',
    );
    assert.equal(fake.requests.length, 2);
  });

  it('reports 422, 400 and a 500 "duplicate entries" as rejected after one request', async () => {
    const cases: [number, string][] = [
      [422, 'Invalid value'],
      [400, 'metadata.managedFields must be nil'],
      [500, 'failed to create typed patch object: duplicate entries for key [type="Ready"]'],
    ];
    for (const [code, message] of cases) {
      const fake = new FakeKubeRequester([() => liveWith({}), () => fail(code, { message })]);
      const w = new StatusWriter(fake, { fieldManager: 'w', clock, backoff: noDelay });
      const out = await w.write(target, { addresses: ['a'] });
      assert.equal(out.reason, 'rejected', String(code));
      assert.equal(out.requests, 1);
      assert.equal(out.error?.statusCode, code);
    }
  });

  it('throws other server errors for the caller to requeue', async () => {
    const fake = new FakeKubeRequester([
      () => liveWith({}),
      () => fail(500, { message: 'etcd is sad' }),
    ]);
    const w = new StatusWriter(fake, { fieldManager: 'w', clock });
    await assert.rejects(w.write(target, { addresses: ['a'] }), KubeApiError);
  });

  it('returns not-found when the GET or the PATCH answers 404', async () => {
    const gone = (): never => fail(404, { reason: 'NotFound' });
    const w1 = new StatusWriter(new FakeKubeRequester([gone]), { fieldManager: 'w', clock });
    assert.deepEqual(await w1.write(target, { a: 1 }), {
      written: false,
      reason: 'not-found',
      requests: 0,
    });
    const w2 = new StatusWriter(new FakeKubeRequester([() => liveWith({}), gone]), {
      fieldManager: 'w',
      clock,
    });
    assert.deepEqual(await w2.write(target, { a: 1 }), {
      written: false,
      reason: 'not-found',
      requests: 1,
    });
  });

  it('does not write when the live status has a newer observedGeneration', async () => {
    const fake = new FakeKubeRequester([() => liveWith({ observedGeneration: 9 })]);
    const w = new StatusWriter(fake, { fieldManager: 'w', clock });
    const out = await w.write(target, { observedGeneration: 8 });
    assert.equal(out.reason, 'stale-generation');
    assert.match(out.detail ?? '', /status\.observedGeneration/);
  });

  it('shared list: sends the merged list with the live resourceVersion and keeps its other owned fields', async () => {
    const live = liveWith(
      {
        addresses: ['x'],
        parents: [
          { controllerName: 'other', parentRef: { name: 'g1' } },
          { controllerName: 'me', parentRef: { name: 'old' } },
        ],
      },
      { 'f:status': { 'f:addresses': {} } },
    );
    const fake = new FakeKubeRequester([() => live, applied]);
    const w = new StatusWriter(fake, { fieldManager: 'w', clock });
    const out = await w.writeSharedList(target, {
      path: ['parents'],
      isOurs: (e) => (e as { controllerName: string }).controllerName === 'me',
      entries: [{ controllerName: 'me', parentRef: { name: 'g2' } }],
    });
    assert.equal(out.written, true);
    const body = fake.requests[1]?.body as { metadata: unknown; status: unknown };
    assert.deepEqual(body.metadata, { name: 'p', namespace: 'ns', resourceVersion: '7' });
    assert.deepEqual(body.status, {
      addresses: ['x'],
      parents: [
        { controllerName: 'other', parentRef: { name: 'g1' } },
        { controllerName: 'me', parentRef: { name: 'g2' } },
      ],
    });
  });
});

describe('mergeOwnEntries', () => {
  const isOurs = (e: unknown): boolean => (e as { controllerName: string }).controllerName === 'me';
  it('replaces ours in place, drops ours no longer wanted, appends new ones, keeps foreign ones', () => {
    const live = [
      { controllerName: 'me', parentRef: { name: 'a' }, v: 1 },
      { controllerName: 'x', parentRef: { name: 'a' } },
      { controllerName: 'me', parentRef: { name: 'b' } },
    ];
    const ours = [
      { controllerName: 'me', parentRef: { name: 'a' }, v: 2 },
      { controllerName: 'me', parentRef: { name: 'c' } },
    ];
    assert.deepEqual(mergeOwnEntries(live, ours, isOurs), [
      { controllerName: 'me', parentRef: { name: 'a' }, v: 2 },
      { controllerName: 'x', parentRef: { name: 'a' } },
      { controllerName: 'me', parentRef: { name: 'c' } },
    ]);
  });
});

import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { objectKey } from '../../../../src/core/keys.js';
import { diffByUid } from '../../../../src/k8s/informer/diff-by-uid.js';
import { cm } from './fake-list-watch-transport.js';

function summary(d: ReturnType<typeof diffByUid>): string[] {
  return d.map((x) => `${x.type} ${x.object.metadata?.name ?? ''}/${x.object.metadata?.uid ?? ''}`);
}

describe('diffByUid', () => {
  it('finds added, updated and deleted objects, deletes first', () => {
    const before = [cm('keep', 'u1', '1'), cm('change', 'u2', '1'), cm('gone', 'u3', '1')];
    const after = [cm('keep', 'u1', '1'), cm('change', 'u2', '9'), cm('new', 'u4', '9')];
    assert.deepEqual(summary(diffByUid(before, after, objectKey)), [
      'deleted gone/u3',
      'updated change/u2',
      'added new/u4',
    ]);
  });

  it('reports a name deleted and re-created during an outage as delete then add', () => {
    const d = diffByUid([cm('x', 'old-uid', '1')], [cm('x', 'new-uid', '5')], objectKey);
    assert.deepEqual(summary(d), ['deleted x/old-uid', 'added x/new-uid']);
  });

  it('treats an equal resourceVersion as unchanged without comparing it numerically', () => {
    const d = diffByUid([cm('x', 'u', '0010')], [cm('x', 'u', '10')], objectKey);
    assert.deepEqual(summary(d), ['updated x/u']);
    assert.deepEqual(diffByUid([cm('x', 'u', 'abc')], [cm('x', 'u', 'abc')], objectKey), []);
  });
});

import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { leaderIdentity } from '../../../../src/k8s/leader/leader-identity.js';

describe('leaderIdentity', () => {
  it('uses POD_NAME when it is set', () => {
    assert.equal(
      leaderIdentity({ env: { POD_NAME: 'haptic-7d9' }, hostname: 'node1' }),
      'haptic-7d9',
    );
  });

  it('falls back to the hostname when POD_NAME is unset or blank', () => {
    assert.equal(leaderIdentity({ env: {}, hostname: 'node1' }), 'node1');
    assert.equal(leaderIdentity({ env: { POD_NAME: ' ' }, hostname: 'node1' }), 'node1');
  });

  it('appends a random suffix that tells replicas on one host apart', () => {
    const a = leaderIdentity({ env: {}, hostname: 'node1', randomSuffix: true });
    const b = leaderIdentity({ env: {}, hostname: 'node1', randomSuffix: true });
    assert.match(a, /^node1_[0-9a-f]{8}$/);
    assert.notEqual(a, b);
  });
});

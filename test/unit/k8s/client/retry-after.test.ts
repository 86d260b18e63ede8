import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { DEFAULT_RETRY_AFTER_MS, retryAfterMs } from '../../../../src/k8s/client/retry-after.js';

describe('retryAfterMs', () => {
  it('reads delta-seconds and clamps them to the bound', () => {
    assert.equal(retryAfterMs('2', 10_000), 2000);
    assert.equal(retryAfterMs('0', 10_000), 0);
    assert.equal(retryAfterMs('3600', 10_000), 10_000);
  });

  it('reads an HTTP date relative to now and never waits a negative time', () => {
    const now = Date.parse('2026-01-01T00:00:00Z');
    assert.equal(retryAfterMs('Thu, 01 Jan 2026 00:00:03 GMT', 10_000, now), 3000);
    assert.equal(retryAfterMs('Wed, 31 Dec 2025 23:59:00 GMT', 10_000, now), 0);
  });

  it('falls back to the default for a missing or unreadable header, still bounded', () => {
    assert.equal(retryAfterMs(undefined, 10_000), DEFAULT_RETRY_AFTER_MS);
    assert.equal(retryAfterMs('soon', 10_000), DEFAULT_RETRY_AFTER_MS);
    assert.equal(retryAfterMs(undefined, 200), 200);
  });
});

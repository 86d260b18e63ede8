import assert from 'node:assert/strict';
import { describe, it } from 'node:test';

import { HealthTracker } from '../../../src/component/health-tracker.js';
import { FakeClock } from './fake-clock.js';

describe('HealthTracker', () => {
  it('is unhealthy while one unit of work runs past the stall threshold', () => {
    const clock = new FakeClock();
    const tracker = new HealthTracker({ clock, stallThresholdMs: 100 });
    tracker.beginProcessing('render');
    clock.advance(100);
    assert.equal(tracker.check().isHealthy, true);
    clock.advance(1);
    assert.deepEqual(tracker.check(), {
      isHealthy: false,
      reason: 'render running for 101 ms (threshold 100 ms)',
    });
    tracker.endProcessing();
    assert.equal(tracker.check().isHealthy, true);
  });

  it('is unhealthy when a timer component records no activity within its timeout', () => {
    const clock = new FakeClock();
    const tracker = new HealthTracker({ clock, activityTimeoutMs: 150 });
    clock.advance(140);
    tracker.recordActivity();
    clock.advance(150);
    assert.equal(tracker.check().isHealthy, true);
    clock.advance(1);
    assert.equal(tracker.check().isHealthy, false);
    assert.match(tracker.check().reason ?? '', /no activity for 151 ms/);
  });
});

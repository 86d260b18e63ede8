import assert from 'node:assert/strict';
import { describe, it } from 'node:test';

import { Registry } from 'prom-client';

import { registerBusMetrics } from '../../../src/bus/bus-metrics.js';
import { EventBus } from '../../../src/bus/event-bus.js';

describe('registerBusMetrics', () => {
  it('reports published events, subscribers and drops per subscriber at scrape time', async () => {
    const bus = new EventBus<{ readonly type: 'a' }>();
    const registry = new Registry();
    registerBusMetrics(bus, registry);
    bus.subscribe({ name: 'tiny', capacity: 1, handler: () => undefined });
    bus.subscribe({ name: 'lossy', capacity: 1, isLossy: true, handler: () => undefined });
    bus.start();
    for (let i = 0; i < 3; i++) bus.publish({ type: 'a' });
    const text = await registry.metrics();
    assert.match(text, /^haptic_events_published_total 3$/m);
    assert.match(text, /^haptic_event_subscribers 2$/m);
    assert.match(text, /^haptic_events_dropped_critical_total 2$/m);
    assert.match(text, /^haptic_events_dropped_observability_total 2$/m);
    assert.match(text, /^haptic_events_dropped_by_subscriber_total\{subscriber="tiny"\} 2$/m);
    await bus.whenIdle();
  });
});

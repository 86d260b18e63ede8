/**
 * Exposes a bus's counters in a prom-client registry (HAPTIC's `haptic_event_*` metrics). The
 * values are read from `bus.stats()` at scrape time, so publishing pays nothing for metrics.
 */
import { Counter, Gauge, type Registry } from 'prom-client';

import type { BusStats } from './event-bus.js';

/** The part of the bus the metrics read. */
export interface BusStatsSource {
  stats(): BusStats;
}

/** Registers the bus metrics in `registry` (one bus per registry: both are per iteration). */
export function registerBusMetrics(bus: BusStatsSource, registry: Registry): void {
  const subscribers: Gauge = new Gauge({
    name: 'haptic_event_subscribers',
    help: 'Live event bus subscriptions.',
    registers: [registry],
    collect: () => {
      subscribers.set(bus.stats().subscribers.length);
    },
  });
  const counter = (name: string, help: string, read: (s: BusStats) => number): void => {
    const metric: Counter = new Counter({
      name,
      help,
      registers: [registry],
      collect: () => {
        metric.reset();
        metric.inc(read(bus.stats()));
      },
    });
  };
  counter('haptic_events_published_total', 'Events published on the bus.', (s) => s.published);
  counter(
    'haptic_events_dropped_critical_total',
    'Events dropped for critical subscribers (full queue).',
    (s) => s.droppedCritical,
  );
  counter(
    'haptic_events_dropped_observability_total',
    'Events dropped for lossy (observability) subscribers.',
    (s) => s.droppedLossy,
  );
  counter(
    'haptic_events_dropped_prestart_total',
    'Events dropped because the pre-start buffer was full.',
    (s) => s.preStartDropped,
  );
  const bySubscriber: Counter<'subscriber'> = new Counter({
    name: 'haptic_events_dropped_by_subscriber_total',
    help: 'Events dropped per subscriber.',
    labelNames: ['subscriber'],
    registers: [registry],
    collect: () => {
      bySubscriber.reset();
      for (const sub of bus.stats().subscribers) {
        if (sub.dropped > 0) bySubscriber.inc({ subscriber: sub.name }, sub.dropped);
      }
    },
  });
}

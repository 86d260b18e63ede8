/**
 * Event bus throughput: `npm run bench -- bus [events] [subscribers]` publishes 1,000,000 events
 * (default) to 10 subscribers (default) and prints deliveries per second and publish latency
 * percentiles. The publisher yields to the subscribers every `capacity / 2` events, as a real
 * producer (an informer callback, a timer) returns to the event loop, so no event is dropped.
 */
import { EventBus } from '../src/bus/event-bus.js';
import { EventComponent } from '../src/component/event-component.js';
import { createLogger } from '../src/observability/logger.js';

interface BenchEvent {
  readonly type: 'resource.index.updated';
  readonly seq: number;
}

const CAPACITY = 4_096;

/** A component whose handler is async, as most real handlers are (one await per event). */
class CountingComponent extends EventComponent<BenchEvent> {
  count = 0;
  protected override async handleEvent(): Promise<void> {
    this.count++;
    await Promise.resolve();
  }
}

/** Deliveries per second through EventComponent mailboxes (async dispatch, crash isolation). */
async function componentPath(events: number, subscribers: number): Promise<string> {
  const bus = new EventBus<BenchEvent>();
  const logger = createLogger({ level: 'silent' });
  const controller = new AbortController();
  const components = Array.from(
    { length: subscribers },
    (_, i) =>
      new CountingComponent(
        { bus, logger },
        { name: `component-${i}`, mailbox: { coalescesOn: [] } },
      ),
  );
  const running = components.map((c) => c.start(controller.signal));
  bus.start();
  const started = performance.now();
  for (let seq = 0; seq < events; seq++) {
    bus.publish({ type: 'resource.index.updated', seq });
    if (seq % CAPACITY === CAPACITY - 1) await bus.whenIdle();
  }
  await bus.whenIdle();
  const elapsedMs = performance.now() - started;
  const delivered = components.reduce((n, c) => n + c.count, 0);
  controller.abort();
  await Promise.all(running);
  const perSecond = Math.round((delivered / elapsedMs) * 1000).toLocaleString('en-US');
  return `component path:       ${delivered.toLocaleString('en-US')} deliveries via ${subscribers} async EventComponents, ${perSecond}/s`;
}

function percentile(sorted: Float64Array, p: number): number {
  return sorted[Math.min(sorted.length - 1, Math.floor(sorted.length * p))] ?? 0;
}

export default async function busBench(args: string[], signal: AbortSignal): Promise<void> {
  const events = Number(args[0] ?? 1_000_000);
  const subscribers = Number(args[1] ?? 10);
  const bus = new EventBus<BenchEvent>({ defaultCapacity: CAPACITY });
  let delivered = 0;
  for (let i = 0; i < subscribers; i++) {
    bus.subscribe({
      name: `subscriber-${i}`,
      handler: () => {
        delivered++;
      },
    });
  }
  bus.start();

  const sampleEvery = 10;
  const latencies = new Float64Array(Math.ceil(events / sampleEvery));
  let samples = 0;
  const yieldEvery = CAPACITY / 2;
  const started = performance.now();
  for (let seq = 0; seq < events && !signal.aborted; seq++) {
    const event: BenchEvent = { type: 'resource.index.updated', seq };
    if (seq % sampleEvery === 0) {
      const t0 = performance.now();
      bus.publish(event);
      latencies[samples++] = performance.now() - t0;
    } else {
      bus.publish(event);
    }
    if (seq % yieldEvery === yieldEvery - 1) await bus.whenIdle();
  }
  await bus.whenIdle();
  const elapsedMs = performance.now() - started;
  const sorted = latencies.subarray(0, samples).sort();
  const stats = bus.stats();
  const perSecond = (delivered / elapsedMs) * 1000;
  process.stdout.write(
    [
      `events published:     ${events.toLocaleString('en-US')} to ${subscribers} subscribers`,
      `deliveries:           ${delivered.toLocaleString('en-US')} in ${elapsedMs.toFixed(0)} ms`,
      `deliveries/s:         ${Math.round(perSecond).toLocaleString('en-US')} (aim >= 1,000,000)`,
      `publish latency p50:  ${(percentile(sorted, 0.5) * 1000).toFixed(2)} µs`,
      `publish latency p99:  ${(percentile(sorted, 0.99) * 1000).toFixed(2)} µs`,
      `publish latency max:  ${(percentile(sorted, 1) * 1000).toFixed(2)} µs`,
      `dropped (critical):   ${stats.droppedCritical}`,
      await componentPath(Math.min(events, 200_000), subscribers),
      '',
    ].join('\n'),
  );
}

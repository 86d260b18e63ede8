/**
 * Per-component metrics in a (per-iteration) prom-client registry: mailbox depth and handler
 * failures, labelled by component. Several components share one metric object per registry, so
 * the metrics are created once per registry and each component adds a depth source.
 */
import { Counter, Gauge, type Registry } from 'prom-client';

/** Handle a component keeps to feed and later detach its metrics. */
export interface ComponentMetricsHandle {
  recordFailure(): void;
  unregister(): void;
}

interface RegistryMetrics {
  readonly depthSources: Map<string, () => number>;
  readonly failures: Counter<'component'>;
}

const byRegistry = new WeakMap<Registry, RegistryMetrics>();

function metricsFor(registry: Registry): RegistryMetrics {
  const existing = byRegistry.get(registry);
  if (existing !== undefined) return existing;
  const depthSources = new Map<string, () => number>();
  const depth: Gauge<'component'> = new Gauge({
    name: 'haptic_component_mailbox_depth',
    help: 'Events waiting in a component queue (after coalescing).',
    labelNames: ['component'],
    registers: [registry],
    collect: () => {
      depth.reset();
      for (const [component, read] of depthSources) depth.set({ component }, read());
    },
  });
  const failures = new Counter({
    name: 'haptic_component_handler_failures_total',
    help: 'Event handler invocations that threw or rejected.',
    labelNames: ['component'],
    registers: [registry],
  });
  const created = { depthSources, failures };
  byRegistry.set(registry, created);
  return created;
}

/** Registers `component`'s depth source (read at scrape time) and failure counter. */
export function registerComponentMetrics(
  registry: Registry,
  component: string,
  readDepth: () => number,
): ComponentMetricsHandle {
  const metrics = metricsFor(registry);
  metrics.depthSources.set(component, readDepth);
  return {
    recordFailure: () => {
      metrics.failures.inc({ component });
    },
    unregister: () => {
      if (metrics.depthSources.get(component) === readDepth) metrics.depthSources.delete(component);
    },
  };
}

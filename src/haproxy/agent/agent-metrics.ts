/** Prometheus metrics of the agent, in a registry of their own (never the global one). */
import { Counter, Histogram, Registry } from 'prom-client';

/** The agent's metrics. */
export interface AgentMetrics {
  readonly registry: Registry;
  /** Successful applies by mode (`runtime`, `reload`, `noop`). */
  readonly applies: Counter<'mode'>;
  /** Refused applies by reason (`stale_epoch`, `rejected`, `bad_path`, …). */
  readonly rejections: Counter<'reason'>;
  /** Reloads by result (`success`, `failure`). */
  readonly reloads: Counter<'result'>;
  /** Journal restores after a failed apply. */
  readonly rollbacks: Counter;
  /** Request-to-verified time of successful applies. */
  readonly applyDuration: Histogram<'mode'>;
}

/** Creates the metrics in a fresh registry. */
export function createAgentMetrics(): AgentMetrics {
  const registry = new Registry();
  return {
    registry,
    applies: new Counter({
      name: 'haptic_agent_applies_total',
      help: 'Successful applies by mode.',
      labelNames: ['mode'],
      registers: [registry],
    }),
    rejections: new Counter({
      name: 'haptic_agent_rejections_total',
      help: 'Refused applies by reason.',
      labelNames: ['reason'],
      registers: [registry],
    }),
    reloads: new Counter({
      name: 'haptic_agent_reloads_total',
      help: 'HAProxy reloads through the master CLI by result.',
      labelNames: ['result'],
      registers: [registry],
    }),
    rollbacks: new Counter({
      name: 'haptic_agent_rollbacks_total',
      help: 'Applies undone by restoring the journal of last-known-good files.',
      registers: [registry],
    }),
    applyDuration: new Histogram({
      name: 'haptic_agent_apply_duration_seconds',
      help: 'Time from request to verified apply.',
      labelNames: ['mode'],
      buckets: [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10],
      registers: [registry],
    }),
  };
}

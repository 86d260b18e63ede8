/**
 * Correlation envelope carried by events: every event has its own id; `correlationId` names the
 * reconciliation (or request) it belongs to; `causationId` names the event that caused it. A
 * consumer that reacts to event A with event B derives B's envelope from A with
 * {@link childEnvelope}, so a whole reconciliation can be found by one correlation id.
 */
import { randomUUID } from 'node:crypto';

import { type Clock, systemClock } from '../core/clock.js';

/** Identity and lineage fields common to every domain event. */
export interface EventEnvelope {
  /** Unique id of this event. */
  readonly id: string;
  /** Milliseconds since the epoch when the event was created. */
  readonly timestamp: number;
  /** Shared by every event of one reconciliation / request chain. */
  readonly correlationId: string;
  /** Id of the event this one reacts to; absent on a chain's first event. */
  readonly causationId?: string;
}

/** Sources of time and ids, injectable so tests are deterministic. */
export interface EnvelopeSource {
  readonly clock?: Clock;
  readonly newId?: () => string;
}

/** Envelope for the first event of a new chain: its correlation id is its own id. */
export function rootEnvelope(source: EnvelopeSource = {}): EventEnvelope {
  const id = (source.newId ?? randomUUID)();
  return { id, timestamp: (source.clock ?? systemClock).now(), correlationId: id };
}

/** Envelope for an event caused by `cause`: same correlation id, causation id = cause's id. */
export function childEnvelope(cause: EventEnvelope, source: EnvelopeSource = {}): EventEnvelope {
  return {
    id: (source.newId ?? randomUUID)(),
    timestamp: (source.clock ?? systemClock).now(),
    correlationId: cause.correlationId,
    causationId: cause.id,
  };
}

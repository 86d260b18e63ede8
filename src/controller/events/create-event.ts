/**
 * Builds domain events: envelope + type + payload, deeply frozen. Passing the causing event as
 * `cause` keeps the correlation id of the chain and records the causation, so one
 * reconciliation can be followed end to end (commentator ring buffer, `/debug/events`).
 */
import { deepFreeze } from '../../bus/deep-freeze.js';
import {
  childEnvelope,
  rootEnvelope,
  type EnvelopeSource,
  type EventEnvelope,
} from '../../bus/envelope.js';
import type { DomainEventOf, DomainEventPayloads, DomainEventType } from './domain-events.js';

/** Options of {@link createEvent}. */
export interface CreateEventOptions extends EnvelopeSource {
  /** The event this one reacts to; omit to start a new correlation chain. */
  readonly cause?: EventEnvelope;
}

/**
 * Creates a frozen domain event of `type`. Payload objects are frozen in place, so callers must
 * pass data they no longer mutate (copy first when in doubt).
 */
export function createEvent<K extends DomainEventType>(
  type: K,
  payload: DomainEventPayloads[K],
  options: CreateEventOptions = {},
): DomainEventOf<K> {
  const envelope =
    options.cause === undefined ? rootEnvelope(options) : childEnvelope(options.cause, options);
  return deepFreeze({ ...payload, ...envelope, type });
}
